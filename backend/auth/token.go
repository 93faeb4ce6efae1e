package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
)

// TokenPrefix starts every API token, so a leaked one is recognisable.
const TokenPrefix = "mb_"

// tokenBytes is the entropy of a token.
const tokenBytes = 32

// touchEvery throttles last_used_at writes per token.
const touchEvery = time.Minute

// ErrInvalidToken is returned for a malformed, unknown or revoked token;
// the three are deliberately indistinguishable to the caller.
var ErrInvalidToken = errors.New("auth: invalid token")

// ErrNoOwner is returned when an Owner token is asked for but
// OWNER_DISCORD_ID is not set.
var ErrNoOwner = errors.New("auth: OWNER_DISCORD_ID is not set: set it to the Owner's Discord user id to mint an Owner token")

// Service mints, checks and revokes API tokens. It is safe for concurrent use.
type Service struct {
	st    *store.Store
	key   []byte
	owner string

	// Seams for tests.
	now  func() time.Time
	rand io.Reader
	log  *slog.Logger

	mu        sync.Mutex
	lastTouch map[int64]time.Time
	cache     *authCache
}

// Config configures the token service.
type Config struct {
	Store *store.Store // required
	// TokenKey is TOKEN_KEY: empty (no token can be checked; every check
	// answers ErrInvalidToken) or at least config.MinTokenKeyLen bytes.
	TokenKey []byte
	// OwnerDiscordID is OWNER_DISCORD_ID ("" when no Owner is configured).
	OwnerDiscordID string
	Log            *slog.Logger     // nil: discard; never handed a token or key
	Now            func() time.Time // nil: time.Now; created, used and revoked times
}

// New builds the token service, or says what in cfg is wrong.
func New(cfg Config) (*Service, error) {
	switch {
	case cfg.Store == nil:
		return nil, errors.New("auth: new: no store")
	case len(cfg.TokenKey) > 0 && len(cfg.TokenKey) < config.MinTokenKeyLen:
		return nil, fmt.Errorf("auth: new: TOKEN_KEY is %d bytes; use at least %d", len(cfg.TokenKey), config.MinTokenKeyLen)
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{
		st: cfg.Store, key: append([]byte(nil), cfg.TokenKey...), owner: cfg.OwnerDiscordID,
		now: cfg.Now, rand: rand.Reader, log: cfg.Log,
		lastTouch: map[int64]time.Time{}, cache: newAuthCache(),
	}, nil
}

// OwnerDiscordID returns the configured Owner's Discord id ("" when unset).
func (s *Service) OwnerDiscordID() string { return s.owner }

// digest is the stored form of a token: HMAC-SHA256 under TOKEN_KEY.
func (s *Service) digest(token string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(token))
	return m.Sum(nil)
}

// wellFormed checks the shape without touching the database.
func wellFormed(token string) bool { return shaped(token, TokenPrefix) }

// shaped says whether token is prefix and tokenBytes of base64url.
func shaped(token, prefix string) bool {
	body, ok := strings.CutPrefix(token, prefix)
	if !ok || len(body) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(body)
	return err == nil
}

// Authenticate resolves a bearer token to the Identity of its Reader.
// A sync key is refused here: it calls the sync routes only
// (AuthenticateSync).
func (s *Service) Authenticate(ctx context.Context, token string) (Identity, error) {
	if len(s.key) == 0 || !wellFormed(token) {
		return Identity{}, ErrInvalidToken
	}
	id, err := s.lookup(ctx, token)
	if err == nil && id.Sync {
		return Identity{}, ErrInvalidToken
	}
	return id, err
}

// lookup resolves a token or sync key of any scope.
func (s *Service) lookup(ctx context.Context, token string) (Identity, error) {
	want := s.digest(token)
	if id, ok := s.cache.get(want, s.now()); ok {
		s.touch(ctx, id.TokenID)
		return id, nil
	}
	row, err := s.st.ActiveTokenByHMAC(ctx, want)
	if errors.Is(err, store.ErrNotFound) {
		return Identity{}, ErrInvalidToken
	}
	if err != nil {
		// The token may well be good: say the store failed, not the token.
		return Identity{}, fmt.Errorf("auth: authenticate: %w: %w", ErrUnavailable, err)
	}
	// The lookup matched on the index; compare again in constant time so
	// no comparison of secret material ever short-circuits.
	if subtle.ConstantTimeCompare(row.HMAC, want) != 1 {
		return Identity{}, ErrInvalidToken
	}
	s.touch(ctx, row.ID)
	id := Identity{
		ReaderID:  row.ReaderID,
		TokenID:   row.ID,
		DiscordID: row.DiscordID,
		Name:      row.ReaderName,
		Owner:     s.isOwner(row.DiscordID),
		Sync:      row.Scope == store.ScopeSync,
	}
	s.cache.put(want, id, s.now())
	return id, nil
}

func (s *Service) isOwner(discordID string) bool {
	return s.owner != "" && subtle.ConstantTimeCompare([]byte(discordID), []byte(s.owner)) == 1
}

// touch records the use at most once per touchEvery per token and process;
// the store applies the same threshold across processes.
func (s *Service) touch(ctx context.Context, tokenID int64) {
	now := s.now()
	s.mu.Lock()
	last, seen := s.lastTouch[tokenID]
	if seen && now.Sub(last) < touchEvery {
		s.mu.Unlock()
		return
	}
	if len(s.lastTouch) > 100000 {
		s.lastTouch = map[int64]time.Time{}
	}
	s.lastTouch[tokenID] = now
	s.mu.Unlock()
	if err := s.st.TouchToken(ctx, tokenID, now, touchEvery); err != nil {
		s.log.Warn("token last-used update failed", "token_id", tokenID, "error", err)
	}
}

// newPlaintext draws a fresh token: the prefix and 32 random bytes in
// unpadded base64url.
func (s *Service) newPlaintext() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("auth: random token: %w", err)
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// MintOwnerToken mints a token for the Owner (OWNER_DISCORD_ID), creating
// the Owner's Reader row when needed.
func (s *Service) MintOwnerToken(ctx context.Context, tokenName string) (string, store.Token, error) {
	if s.owner == "" {
		return "", store.Token{}, ErrNoOwner
	}
	return s.mint(ctx, s.owner, "", tokenName, nil)
}

// MintTokenRow creates (or renames) the Reader with that Discord id and
// gives it a new token named tokenName, returning the plaintext and the
// stored row. The plaintext is returned once and never stored or logged.
func (s *Service) MintTokenRow(ctx context.Context, readerDiscordID, readerName, tokenName string) (string, store.Token, error) {
	return s.mint(ctx, readerDiscordID, readerName, tokenName, nil)
}

func (s *Service) mint(ctx context.Context, discordID, readerName, tokenName string, loginAt *time.Time) (string, store.Token, error) {
	if len(s.key) == 0 {
		return "", store.Token{}, errors.New("auth: TOKEN_KEY is not set: set it to at least 32 random characters (openssl rand -hex 32)")
	}
	discordID = strings.TrimSpace(discordID)
	if discordID == "" {
		return "", store.Token{}, errors.New("auth: a Reader needs a Discord id")
	}
	r, err := s.st.UpsertReader(ctx, discordID, strings.TrimSpace(readerName), loginAt)
	if err != nil {
		return "", store.Token{}, fmt.Errorf("auth: mint token: %w", err)
	}
	plain, err := s.newPlaintext()
	if err != nil {
		return "", store.Token{}, err
	}
	t, err := s.st.InsertToken(ctx, r.ID, strings.TrimSpace(tokenName), s.digest(plain), s.now())
	if err != nil {
		return "", store.Token{}, fmt.Errorf("auth: mint token: %w", err)
	}
	// The store revoked the Reader's oldest token past
	// store.MaxLiveTokens: it is refused from now on, here too.
	s.cache.clear()
	s.log.Info("token minted", "token_id", t.ID, "reader_id", r.ID, "discord_id", discordID, "token_name", t.Name)
	return plain, t, nil
}

// ListTokens lists every token without secrets, newest first.
func (s *Service) ListTokens(ctx context.Context) ([]store.Token, error) {
	return s.st.ListTokens(ctx)
}

// RevokeToken revokes a token by id; it is refused from then on.
func (s *Service) RevokeToken(ctx context.Context, id int64) error {
	if err := s.st.RevokeToken(ctx, id, s.now()); err != nil {
		return fmt.Errorf("auth: revoke token %d: %w", id, err)
	}
	s.cache.clear()
	s.log.Info("token revoked", "token_id", id)
	return nil
}
