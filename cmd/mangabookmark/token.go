package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/safetext"
	"mangabookmark/backend/store"
)

// TokenCmd manages API tokens from the server's own command line: for the
// Owner's mbctl before any OAuth is set up, for a Reader without Discord,
// and for tests.
type TokenCmd struct {
	Create TokenCreateCmd `cmd:"" help:"Mint a token for a Reader (--reader) or the Owner (--owner) and print it once."`
	List   TokenListCmd   `cmd:"" help:"List tokens (never their secrets)."`
	Revoke TokenRevokeCmd `cmd:"" help:"Revoke a token by its id."`
}

// TokenCreateCmd mints a token.
type TokenCreateCmd struct {
	Reader     string `help:"Discord user id of the Reader the token is for." placeholder:"DISCORD_ID" xor:"who"`
	Owner      bool   `help:"Mint for the Owner (OWNER_DISCORD_ID)." xor:"who"`
	Name       string `help:"A name for the token, to tell it apart in 'token list'." default:"cli"`
	ReaderName string `help:"Display name to store for a new Reader." name:"reader-name"`

	out io.Writer
}

// TokenListCmd lists tokens.
type TokenListCmd struct {
	out io.Writer
}

// TokenRevokeCmd revokes one token.
type TokenRevokeCmd struct {
	ID int64 `arg:"" help:"Token id, as 'token list' shows it."`

	out io.Writer
}

// tokenService opens the store (migrated) and the token service.
func tokenService(ctx context.Context, env *Env) (*auth.Service, func(), error) {
	cfg, err := env.Config()
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, nil, err
	}
	if err := st.Migrate(ctx); err != nil {
		st.Close()
		return nil, nil, err
	}
	svc, err := auth.New(auth.Config{Store: st, TokenKey: cfg.TokenKey, OwnerDiscordID: cfg.OwnerDiscordID, Log: env.Log.With("component", "auth")})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, st.Close, nil
}

func writer(w io.Writer) io.Writer {
	if w == nil {
		return os.Stdout
	}
	return w
}

// Run mints the token and prints it on stdout, alone on its line.
func (c *TokenCreateCmd) Run(ctx context.Context, env *Env) error {
	if !c.Owner && strings.TrimSpace(c.Reader) == "" {
		return errors.New("token create: give --reader DISCORD_ID or --owner")
	}
	svc, done, err := tokenService(ctx, env)
	if err != nil {
		return err
	}
	defer done()
	var plain string
	var row store.Token
	if c.Owner {
		plain, row, err = svc.MintOwnerToken(ctx, c.Name)
	} else {
		plain, row, err = svc.MintTokenRow(ctx, c.Reader, c.ReaderName, c.Name)
	}
	if err != nil {
		return fmt.Errorf("token create: %w", err)
	}
	fmt.Fprintf(os.Stderr, "token %d for Discord id %s (%q); it is shown only now:\n", row.ID, safetext.Show(row.DiscordID), row.Name)
	_, err = fmt.Fprintln(writer(c.out), plain)
	return err
}

// Run prints the tokens as a table.
func (c *TokenListCmd) Run(ctx context.Context, env *Env) error {
	svc, done, err := tokenService(ctx, env)
	if err != nil {
		return err
	}
	defer done()
	toks, err := svc.ListTokens(ctx)
	if err != nil {
		return fmt.Errorf("token list: %w", err)
	}
	owner := svc.OwnerDiscordID()
	w := tabwriter.NewWriter(writer(c.out), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tDISCORD_ID\tREADER\tNAME\tCREATED\tLAST USED\tSTATE")
	for _, t := range toks {
		state := "active"
		if t.RevokedAt != nil {
			state = "revoked " + t.RevokedAt.UTC().Format(time.RFC3339)
		}
		who := safetext.Show(t.ReaderName)
		if owner != "" && t.DiscordID == owner {
			who += " (Owner)"
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, safetext.Show(t.DiscordID), who, safetext.Show(t.Name),
			t.CreatedAt.UTC().Format(time.RFC3339), timeOrNever(t.LastUsedAt), state)
	}
	return w.Flush()
}

func timeOrNever(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// Run revokes the token.
func (c *TokenRevokeCmd) Run(ctx context.Context, env *Env) error {
	svc, done, err := tokenService(ctx, env)
	if err != nil {
		return err
	}
	defer done()
	if err := svc.RevokeToken(ctx, c.ID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("token revoke: no token with id %d (see 'mangabookmark token list')", c.ID)
		}
		return fmt.Errorf("token revoke: %w", err)
	}
	_, err = fmt.Fprintf(writer(c.out), "token %d revoked\n", c.ID)
	return err
}
