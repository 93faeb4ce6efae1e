package tachibk

// Field numbers of Mihon's backup models (testdata/README.md names the
// files and commit). Only these are read; everything else is skipped.
const (
	fBackupManga   = 1   // Backup.backupManga
	fBackupSources = 101 // Backup.backupSources

	fSourceName = 1 // BackupSource.name
	fSourceID   = 2 // BackupSource.sourceId

	fMangaSource   = 1   // BackupManga.source
	fMangaURL      = 2   // BackupManga.url
	fMangaTitle    = 3   // BackupManga.title
	fMangaChapters = 16  // BackupManga.chapters
	fMangaFavorite = 100 // BackupManga.favorite (Kotlin default true: absent means true)
	fMangaHistory  = 104 // BackupManga.history

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

// Source is one BackupSource: an extension's name and its id.
type Source struct {
	Name string
	ID   int64
}

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
}

// Chapter is the part of a BackupChapter an import reads.
type Chapter struct {
	URL       string
	Read      bool
	Number    float32
	DateFetch int64
}
