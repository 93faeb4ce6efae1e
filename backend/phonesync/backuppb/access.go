package backuppb

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Field returns m's field named name; it panics on a name backup.proto
// does not have, which is a programming error the tests catch.
func Field(m protoreflect.Message, name string) protoreflect.FieldDescriptor {
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(name))
	if fd == nil {
		panic("backuppb: " + string(m.Descriptor().Name()) + " has no field " + name)
	}
	return fd
}

// Int returns an integer field's value (0 when absent, as the Kotlin
// defaults of every integer field of the backup are).
func Int(m protoreflect.Message, name string) int64 {
	fd := Field(m, name)
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return m.Get(fd).Int()
	}
	panic("backuppb: " + name + " is not an integer field")
}

// String returns a string field's value ("" when absent).
func String(m protoreflect.Message, name string) string {
	return m.Get(Field(m, name)).String()
}

// Bool returns a bool field's value, or def when it is absent (the Kotlin
// default: true for BackupManga.favorite, false elsewhere).
func Bool(m protoreflect.Message, name string, def bool) bool {
	fd := Field(m, name)
	if !m.Has(fd) {
		return def
	}
	return m.Get(fd).Bool()
}

// List returns the messages of a repeated message field.
func List(m protoreflect.Message, name string) []protoreflect.Message {
	l := m.Get(Field(m, name)).List()
	out := make([]protoreflect.Message, l.Len())
	for i := range out {
		out[i] = l.Get(i).Message()
	}
	return out
}

// Append adds v to a repeated message field.
func Append(m protoreflect.Message, name string, v protoreflect.Message) {
	m.Mutable(Field(m, name)).List().Append(protoreflect.ValueOfMessage(v))
}

// Ints returns the values of a repeated integer field.
func Ints(m protoreflect.Message, name string) []int64 {
	l := m.Get(Field(m, name)).List()
	out := make([]int64, l.Len())
	for i := range out {
		out[i] = l.Get(i).Int()
	}
	return out
}

// SetInts replaces a repeated int64 field's values.
func SetInts(m protoreflect.Message, name string, vs []int64) {
	fd := Field(m, name)
	m.Clear(fd)
	if len(vs) == 0 {
		return
	}
	l := m.Mutable(fd).List()
	for _, v := range vs {
		l.Append(protoreflect.ValueOfInt64(v))
	}
}

// Set sets a singular scalar field to v (an int64, int32, string, bool,
// float32 or []byte).
func Set(m protoreflect.Message, name string, v any) {
	fd := Field(m, name)
	switch x := v.(type) {
	case int:
		setInt(m, fd, int64(x))
	case int64:
		setInt(m, fd, x)
	case int32:
		setInt(m, fd, int64(x))
	default:
		m.Set(fd, protoreflect.ValueOf(v))
	}
}

func setInt(m protoreflect.Message, fd protoreflect.FieldDescriptor, v int64) {
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		m.Set(fd, protoreflect.ValueOfInt32(int32(v)))
	default:
		m.Set(fd, protoreflect.ValueOfInt64(v))
	}
}

// Clear removes a field.
func Clear(m protoreflect.Message, name string) {
	m.Clear(Field(m, name))
}
