package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Secrets may come from files (compose `secrets:`), so they never sit in a
// container's environment; both at once, or an unreadable file, is refused
// without quoting anything.
func TestSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	key := strings.Repeat("k", 40)
	if err := os.WriteFile(filepath.Join(dir, "token_key"), []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dsn := "postgres://app:s3cret@db:5432/mangabookmark?sslmode=disable"
	if err := os.WriteFile(filepath.Join(dir, "dsn"), []byte(dsn), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	c, err := LoadLookup(env(map[string]string{"TOKEN_KEY_FILE": filepath.Join(dir, "token_key"), "DATABASE_URL_FILE": filepath.Join(dir, "dsn")}))
	if err != nil || string(c.TokenKey) != key || c.DatabaseURL != dsn {
		t.Fatalf("from files: key %q dsn %q err %v", c.TokenKey, c.DatabaseURL, err)
	}
	readers := "https://discord.example/api/webhooks/2/readers-webhook-token"
	if err := os.WriteFile(filepath.Join(dir, "readers_webhook"), []byte(readers+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = LoadLookup(env(map[string]string{"DISCORD_READERS_WEBHOOK_URL_FILE": filepath.Join(dir, "readers_webhook")}))
	if err != nil || c.DiscordReadersWebhookURL != readers {
		t.Fatalf("readers webhook from a file: %q err %v", c.DiscordReadersWebhookURL, err)
	}
	_, err = LoadLookup(env(map[string]string{"DISCORD_READERS_WEBHOOK_URL_FILE": filepath.Join(dir, "readers_webhook"), "DISCORD_READERS_WEBHOOK_URL": readers}))
	if err == nil || !strings.Contains(err.Error(), "DISCORD_READERS_WEBHOOK_URL_FILE") || strings.Contains(err.Error(), "readers-webhook-token") {
		t.Fatalf("readers webhook both set: %v", err)
	}
	_, err = LoadLookup(env(map[string]string{"TOKEN_KEY_FILE": filepath.Join(dir, "token_key"), "TOKEN_KEY": key}))
	if err == nil || !strings.Contains(err.Error(), "TOKEN_KEY_FILE") || strings.Contains(err.Error(), key) {
		t.Fatalf("both set: %v", err)
	}
	_, err = LoadLookup(env(map[string]string{"DATABASE_URL_FILE": filepath.Join(dir, "missing")}))
	if err == nil || !strings.Contains(err.Error(), "DATABASE_URL_FILE") {
		t.Fatalf("unreadable file: %v", err)
	}
}
