package tachibk

// Field numbers of Mihon's backup models (testdata/README.md names the
// files and commit). Only these are read; everything else is skipped.
const (
	fBackupManga         = 1   // Backup.backupManga
	fBackupBrokenSources = 100 // Backup.backupBrokenSources (the legacy source list)
	fBackupSources       = 101 // Backup.backupSources

	fSourceName = 1 // BackupSource.name
	fSourceID   = 2 // BackupSource.sourceId

	// BrokenBackupSource numbers its fields from 0, which protobuf does not
	// allow and kotlinx writes all the same (tag byte 0x02 for the name).
	fBrokenSourceName = 0 // BrokenBackupSource.name
	fBrokenSourceID   = 1 // BrokenBackupSource.sourceId

	fMangaSource   = 1   // BackupManga.source
	fMangaURL      = 2   // BackupManga.url
	fMangaTitle    = 3   // BackupManga.title
	fMangaChapters = 16  // BackupManga.chapters
	fMangaTracking = 18  // BackupManga.tracking
	fMangaFavorite = 100 // BackupManga.favorite (Kotlin default true: absent means true)
	fMangaHistory  = 104 // BackupManga.history
	fMangaMerged   = 600 // BackupManga.mergedMangaReferences (TachiyomiSY, Komikku)

	fTrackSyncID     = 1   // BackupTracking.syncId (TrackerManager's ids)
	fTrackMediaIDInt = 3   // BackupTracking.mediaIdInt (legacy Int; wins when not 0, as in Mihon)
	fTrackURL        = 4   // BackupTracking.trackingUrl
	fTrackMediaID    = 100 // BackupTracking.mediaId (Long)

	fMergedMangaURL = 7 // BackupMergedMangaReference.mangaUrl
	fMergedSourceID = 8 // BackupMergedMangaReference.mangaSourceId

	fChapterURL       = 1 // BackupChapter.url
	fChapterRead      = 4 // BackupChapter.read
	fChapterDateFetch = 7 // BackupChapter.dateFetch (ms)
	fChapterNumber    = 9 // BackupChapter.chapterNumber (float, fixed32)

	fHistoryURL      = 1 // BackupHistory.url
	fHistoryLastRead = 2 // BackupHistory.lastRead (ms)
)

// Backup is what an import needs of a backup.
type Backup struct {
	Manga   []Manga
	Sources []Source
}

// Source is one BackupSource, or one entry of the legacy source list
// older Tachiyomi backups carry instead (Legacy): an extension's name and
// its id.
type Source struct {
	Name   string
	ID     int64
	Legacy bool
}

// Tracker ids (BackupTracking.syncId) of the trackers whose ids an import
// keeps, as Mihon's TrackerManager numbers them.
const (
	SyncMyAnimeList  = 1
	SyncAniList      = 2
	SyncKitsu        = 3
	SyncMangaUpdates = 7
	SyncMangaBaka    = 11
)

// Tracking is one BackupTracking row of a tracker in the Sync list: the
// tracker, the id the tracker gives the manga (0 when none) and the
// tracker's page of it ("" when none, or longer than MaxURL).
type Tracking struct {
	SyncID  int
	MediaID int64
	URL     string
}

// Reference is one TachiyomiSY merged reference: a member of a merged
// entry, named by its source and its URL on that source.
type Reference struct {
	Source int64
	URL    string
}

// Bounds of what one manga keeps of its tracking rows and merged
// references; rows past them are skipped, never an error.
const (
	// MaxURL is the longest tracking or merged-reference URL kept, in bytes.
	MaxURL = 2048
	// MaxMerged is the most merged references one manga keeps.
	MaxMerged = 32
)

// Manga is one BackupManga, reduced to what an import needs: its source,
// its URL (relative to the source), its title, whether it is in the
// library, and the furthest chapter read.
type Manga struct {
	Source   int64
	URL      string
	Title    string
	Favorite bool
	// Read is the read chapter with the highest number above zero; its
	// Number is 0 when no numbered chapter is read.
	Read Chapter
	// ReadAt is when Read was read, in Unix milliseconds: its history
	// entry's lastRead, else its dateFetch; 0 when neither is known.
	ReadAt int64
	// Tracking holds the first row of each tracker in the Sync list (so
	// at most five), in the order the backup gives them.
	Tracking []Tracking
	// Merged are the manga's merged references (at most MaxMerged).
	Merged []Reference
}

// Chapter is the part of a BackupChapter an import reads.
type Chapter struct {
	URL       string
	Read      bool
	Number    float32
	DateFetch int64
}
