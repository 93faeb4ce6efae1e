package backuppb_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"mangabookmark/backend/phonesync/backuppb"
)

// kotlinxManga writes one BackupManga the way kotlinx's ProtoBuf does for a
// manga the Reader un-favourited: source, url, favorite written as false
// (not its default), and a chapter whose read is true.
func kotlinxManga() []byte {
	var ch []byte
	ch = protowire.AppendTag(ch, 1, protowire.BytesType)
	ch = protowire.AppendString(ch, "/chapter/1")
	ch = protowire.AppendTag(ch, 4, protowire.VarintType)
	ch = protowire.AppendVarint(ch, 1)
	ch = protowire.AppendTag(ch, 9, protowire.Fixed32Type)
	ch = protowire.AppendFixed32(ch, 0x3f800000) // 1.0
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.VarintType)
	m = protowire.AppendVarint(m, 8448310129093543312)
	m = protowire.AppendTag(m, 2, protowire.BytesType)
	m = protowire.AppendString(m, "/manga/1/one")
	m = protowire.AppendTag(m, 16, protowire.BytesType)
	m = protowire.AppendBytes(m, ch)
	m = protowire.AppendTag(m, 17, protowire.VarintType) // unpacked
	m = protowire.AppendVarint(m, 2)
	m = protowire.AppendTag(m, 17, protowire.VarintType)
	m = protowire.AppendVarint(m, 5)
	m = protowire.AppendTag(m, 100, protowire.VarintType)
	m = protowire.AppendVarint(m, 0)
	return m
}

// brokenSource is one entry of Backup field 100 as kotlinx writes it: a
// field numbered 0 (tag byte 0x02) holding the name.
func brokenSource() []byte {
	var s []byte
	s = append(s, 0x02)
	s = protowire.AppendString(s, "MangaPill")
	s = protowire.AppendTag(s, 1, protowire.VarintType)
	s = protowire.AppendVarint(s, 8448310129093543312)
	return s
}

func TestDecodeKeepsKotlinxFieldsAndCarriesTheBrokenSources(t *testing.T) {
	msgs := backuppb.MustLoad()
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, kotlinxManga())
	b = protowire.AppendTag(b, 100, protowire.BytesType)
	b = protowire.AppendBytes(b, brokenSource())
	b = protowire.AppendTag(b, 9001, protowire.VarintType) // a fork's field
	b = protowire.AppendVarint(b, 7)

	got, err := backuppb.Unmarshal(msgs.Backup, b)
	if err != nil {
		t.Fatal(err)
	}
	manga := backuppb.List(got, "backup_manga")
	if len(manga) != 1 {
		t.Fatalf("manga = %d, want 1", len(manga))
	}
	m := manga[0]
	if backuppb.Bool(m, "favorite", true) {
		t.Error("favorite written as false reads as true")
	}
	if cats := backuppb.Ints(m, "categories"); len(cats) != 2 || cats[0] != 2 || cats[1] != 5 {
		t.Errorf("unpacked categories = %v, want [2 5]", cats)
	}
	ch := backuppb.List(m, "chapters")[0]
	if !backuppb.Bool(ch, "read", false) || backuppb.String(ch, "url") != "/chapter/1" {
		t.Errorf("chapter = %v", ch)
	}
	if n := ch.Get(backuppb.Field(ch, "chapter_number")).Float(); n != 1 {
		t.Errorf("chapter_number = %v, want 1", n)
	}
	if !bytes.Contains(got.GetUnknown(), brokenSource()) {
		t.Error("the legacy source list (field 100, with its field 0) is not kept as an unknown field")
	}

	out, err := backuppb.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	again, err := backuppb.Unmarshal(msgs.Backup, out)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(got, again) {
		t.Error("a decoded backup does not survive encoding")
	}
	m2 := backuppb.List(again, "backup_manga")[0]
	if backuppb.Bool(m2, "favorite", true) {
		t.Error("favorite false became absent (true) on the way out")
	}
	if !bytes.Contains(out, brokenSource()) {
		t.Error("the legacy source list is not written back byte for byte")
	}
}

func TestFavoriteAbsentMeansTrue(t *testing.T) {
	msgs := backuppb.MustLoad()
	m := backuppb.New(msgs.Manga)
	if !backuppb.Bool(m, "favorite", true) {
		t.Error("absent favorite is not the Kotlin default, true")
	}
}

func TestRefusesFieldZeroInADeclaredMessage(t *testing.T) {
	msgs := backuppb.MustLoad()
	// A field 0 in a declared message is not protobuf: refused.
	var b []byte
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{0x02, 0x01, 'x'})
	if _, err := backuppb.Unmarshal(msgs.Backup, b); err == nil {
		t.Error("a category with a field 0 decoded")
	}
}
