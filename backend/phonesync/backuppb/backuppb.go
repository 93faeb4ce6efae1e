package backuppb

import (
	"context"
	_ "embed"
	"fmt"
	"sync"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

//go:embed backup.proto
var source string

// Messages holds the descriptor of every message of backup.proto.
type Messages struct {
	Backup, Manga, Chapter, History, Tracking, Category, Source,
	Preference, SourcePreferences, ExtensionStore, SavedSearch,
	MergedReference protoreflect.MessageDescriptor
}

var (
	once     sync.Once
	messages Messages
	errLoad  error
)

// Load compiles backup.proto (once per process) and returns its messages.
// It fails only if the embedded file does not compile, which the package's
// tests rule out.
func Load() (Messages, error) {
	once.Do(func() { messages, errLoad = compile() })
	return messages, errLoad
}

// MustLoad is Load for callers that run after the tests proved the file
// compiles (every binary's start, every test).
func MustLoad() Messages {
	m, err := Load()
	if err != nil {
		panic(err)
	}
	return m
}

func compile() (Messages, error) {
	c := protocompile.Compiler{
		Resolver: &protocompile.SourceResolver{
			Accessor: protocompile.SourceAccessorFromMap(map[string]string{"backup.proto": source}),
		},
	}
	files, err := c.Compile(context.Background(), "backup.proto")
	if err != nil {
		return Messages{}, fmt.Errorf("backuppb: compile backup.proto: %w", err)
	}
	all := files[0].Messages()
	var missing []string
	get := func(name string) protoreflect.MessageDescriptor {
		md := all.ByName(protoreflect.Name(name))
		if md == nil {
			missing = append(missing, name)
		}
		return md
	}
	m := Messages{
		Backup:            get("Backup"),
		Manga:             get("BackupManga"),
		Chapter:           get("BackupChapter"),
		History:           get("BackupHistory"),
		Tracking:          get("BackupTracking"),
		Category:          get("BackupCategory"),
		Source:            get("BackupSource"),
		Preference:        get("BackupPreference"),
		SourcePreferences: get("BackupSourcePreferences"),
		ExtensionStore:    get("BackupExtensionStore"),
		SavedSearch:       get("BackupSavedSearch"),
		MergedReference:   get("BackupMergedMangaReference"),
	}
	if len(missing) > 0 {
		return Messages{}, fmt.Errorf("backuppb: backup.proto lacks %v", missing)
	}
	return m, nil
}

// New returns an empty message of md.
func New(md protoreflect.MessageDescriptor) *dynamicpb.Message {
	return dynamicpb.NewMessage(md)
}

// maxDepth bounds nesting while decoding: a Backup nests three messages
// deep (Backup, BackupManga, BackupChapter and the like); unknown fields
// are never descended into. Protobuf's own default is 10000.
const maxDepth = 8

// Unmarshal decodes b as a message of md. Unknown fields are kept.
func Unmarshal(md protoreflect.MessageDescriptor, b []byte) (*dynamicpb.Message, error) {
	m := dynamicpb.NewMessage(md)
	if err := (proto.UnmarshalOptions{RecursionLimit: maxDepth}).Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("backuppb: decode %s: %w", md.Name(), err)
	}
	return m, nil
}

// Marshal encodes m deterministically (fields by number, unknown fields
// after them, as they came). backup.proto has no required field, so the
// check for them (half the time of an encode) is skipped.
func Marshal(m proto.Message) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("backuppb: encode: %w", err)
	}
	return b, nil
}
