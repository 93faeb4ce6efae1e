package client

import "time"

// PhoneSync is a Reader's phone sync (GET /api/me/sync): whether a sync
// key stands, the host to type into the phone app, the devices seen, the
// last upload and what reading it did.
type PhoneSync struct {
	Enabled      bool             `json:"enabled"`
	Host         string           `json:"host"`
	AddFavorites bool             `json:"add_favorites"`
	Devices      []SyncDevice     `json:"devices"`
	LastUploadAt *time.Time       `json:"last_upload_at"`
	StoredBytes  int64            `json:"stored_bytes"`
	LastResult   *PhoneSyncResult `json:"last_result"`
}

// SyncDevice is one device that synced ("" id: a client that sends none).
type SyncDevice struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	LastSyncAt time.Time `json:"last_sync_at"`
}

// PhoneSyncResult is what reading the last upload did. NotAddedItems
// names the favourites that did not fit (at most 50).
type PhoneSyncResult struct {
	Manga          int                 `json:"manga"`
	Matched        int                 `json:"matched"`
	ProgressMoved  int                 `json:"progress_moved"`
	BookmarksAdded int                 `json:"bookmarks_added"`
	NotAdded       int                 `json:"not_added"`
	NotAddedItems  []ImportUnsupported `json:"not_added_items,omitempty"`
}

// SyncKey is a new sync key (POST /api/me/sync), shown once.
type SyncKey struct {
	Host string `json:"host"`
	Key  string `json:"key"`
}

// PhoneSyncCounts are the phone sync's figures on /admin and in mbctl.
type PhoneSyncCounts struct {
	ReadersSyncing int   `json:"readers_syncing"`
	UploadsToday   int   `json:"uploads_today"`
	BytesStored    int64 `json:"bytes_stored"`
	ProgressMoved  int64 `json:"progress_moved"`
}
