package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"golang.org/x/oauth2"
)

// discordEndpoints are where Discord lives. Only tests change them (through
// the unexported field of OAuth), so production always talks to Discord.
type discordEndpoints struct {
	AuthURL  string
	TokenURL string
	APIBase  string // no trailing slash
}

var discordProduction = discordEndpoints{
	AuthURL:  "https://discord.com/oauth2/authorize",
	TokenURL: "https://discord.com/api/oauth2/token",
	APIBase:  "https://discord.com/api/v10",
}

// discordUser is the part of /users/@me the login needs.
type discordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

func (u discordUser) displayName() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

type discordGuild struct {
	ID string `json:"id"`
}

// discordGet GETs one API path with the user's access token and decodes
// the JSON answer. Errors never quote the token.
func discordGet(ctx context.Context, client *http.Client, base, path string, tok *oauth2.Token, dst any) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return fmt.Errorf("auth: discord %s: %w", path, err)
	}
	tok.SetAuthHeader(req)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("auth: discord %s: request failed", path)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("auth: discord %s: HTTP %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(dst); err != nil {
		return fmt.Errorf("auth: discord %s: decode: %w", path, err)
	}
	return nil
}
