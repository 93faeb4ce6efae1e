package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/safetext"
	"mangabookmark/backend/store"
)

// ExportCmd writes Readers' libraries as this server's JSON export, the
// file POST /api/imports and the import page take back as is.
type ExportCmd struct {
	Reader string `help:"Discord user id of the Reader to export (written to --out, or standard output)." placeholder:"DISCORD_ID" xor:"who" required:""`
	All    bool   `help:"Export every Reader, one file each, named DISCORD_ID.json, into --dir." xor:"who" required:""`
	Out    string `help:"File to write the one Reader's export to (default: standard output)." type:"path"`
	Dir    string `help:"Directory for --all (created when missing)." type:"path"`
}

// discordID is what a Discord user id looks like; it names the files of
// --all, so nothing else may.
var discordID = regexp.MustCompile(`^[0-9]{1,20}$`)

// Run writes the export.
func (c ExportCmd) Run(ctx context.Context, env *Env) error {
	if c.All && c.Dir == "" {
		return errors.New("export --all writes one file per Reader: give the directory with --dir")
	}
	if !c.All && c.Dir != "" {
		return errors.New("--dir goes with --all; for one Reader use --out")
	}
	cfg, err := env.Config()
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer st.Close()
	if !c.All {
		r, err := st.GetReaderByDiscordID(ctx, c.Reader)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no Reader has Discord id %s", safetext.Show(c.Reader))
		}
		if err != nil {
			return err
		}
		if c.Out == "" {
			return writeExport(ctx, st, r.ID, os.Stdout)
		}
		return writeExportFile(ctx, st, r.ID, c.Out)
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	readers, err := st.ListReaders(ctx)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range readers {
		if !discordID.MatchString(r.DiscordID) {
			env.Log.Warn("reader skipped: its Discord id cannot name a file", "reader_id", r.ID)
			continue
		}
		if err := writeExportFile(ctx, st, r.ID, filepath.Join(c.Dir, r.DiscordID+".json")); err != nil {
			return err
		}
		n++
	}
	env.Log.Info("export written", "readers", n, "dir", c.Dir)
	return nil
}

func writeExport(ctx context.Context, st *store.Store, readerID int64, w io.Writer) error {
	exp, err := imports.ExportOf(ctx, st, readerID)
	if err != nil {
		return err
	}
	return imports.WriteJSON(w, exp)
}

// writeExportFile writes through a temporary file renamed into place, so
// an interrupted export never leaves half a file under the final name.
func writeExportFile(ctx context.Context, st *store.Store, readerID int64, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*.json")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := writeExport(ctx, st, readerID, tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
