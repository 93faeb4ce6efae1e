package config

import (
	"os"
	"strings"
)

// SecretFileVars are the secrets that may come from a file instead of the
// environment: NAME_FILE names a file whose content (one trailing newline
// dropped) is NAME's value, as compose's `secrets:` mount them under
// /run/secrets. A value in the environment never reaches `docker inspect`
// that way.
var SecretFileVars = []string{"DATABASE_URL", "TOKEN_KEY", "DISCORD_CLIENT_SECRET", "DISCORD_WEBHOOK_URL", "DISCORD_READERS_WEBHOOK_URL", "ANILIST_CLIENT_SECRET"}

// withSecretFiles wraps lookup so each of SecretFileVars is read from its
// NAME_FILE when set. Setting both NAME and NAME_FILE, or a NAME_FILE that
// cannot be read, is reported through bad; the file's content is never
// quoted.
func withSecretFiles(lookup func(string) (string, bool), bad func(name, reason string)) func(string) (string, bool) {
	files := map[string]string{}
	for _, name := range SecretFileVars {
		path, ok := lookup(name + "_FILE")
		if !ok || strings.TrimSpace(path) == "" {
			continue
		}
		if v, set := lookup(name); set && v != "" {
			bad(name+"_FILE", "set "+name+" or "+name+"_FILE, not both")
			continue
		}
		b, err := os.ReadFile(strings.TrimSpace(path))
		if err != nil {
			bad(name+"_FILE", "cannot read the file it names; check the path and that the backend's user may read it")
			continue
		}
		files[name] = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	return func(name string) (string, bool) {
		if v, ok := files[name]; ok {
			return v, true
		}
		return lookup(name)
	}
}
