package trackers

import (
	"crypto/aes"
	"crypto/cipher"
	"testing"
)

func rawGCM(t *testing.T, key []byte) cipher.AEAD {
	t.Helper()
	b, err := aes.NewCipher(key[:32])
	if err != nil {
		t.Fatal(err)
	}
	g, err := cipher.NewGCM(b)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
