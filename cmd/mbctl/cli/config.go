package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// config is the file `mbctl login` writes.
type config struct {
	Server string `json:"server"`
	Token  string `json:"token"`
}

func configPath(env Env) (string, error) {
	if env.ConfigDir == nil {
		return "", errors.New("mbctl: no config directory")
	}
	dir, err := env.ConfigDir()
	if err != nil {
		return "", fmt.Errorf("mbctl: find the config directory: %w", err)
	}
	return filepath.Join(dir, "mangabookmark", "mbctl.json"), nil
}

// loadConfig reads the config file; a missing file is an empty config.
func loadConfig(env Env) (config, string, error) {
	path, err := configPath(env)
	if err != nil {
		return config{}, "", nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config{}, path, nil
	}
	if err != nil {
		return config{}, path, fmt.Errorf("mbctl: read %s: %w", path, err)
	}
	var c config
	if err := json.Unmarshal(b, &c); err != nil {
		return config{}, path, usagef("%s is not valid JSON (%v); run `mbctl login` again", path, err)
	}
	return c, path, nil
}

// saveConfig writes the config file readable by its owner only.
func saveConfig(env Env, c config) (string, error) {
	path, err := configPath(env)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("mbctl: create %s: %w", filepath.Dir(path), err)
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return "", fmt.Errorf("mbctl: write %s: %w", tmp, err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return "", fmt.Errorf("mbctl: chmod %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("mbctl: write %s: %w", path, err)
	}
	return path, nil
}
