package readernotice

import (
	"mangabookmark/backend/discordhook"

	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// discord posts one message per Digest to the Owner's readers channel
// (DISCORD_READERS_WEBHOOK_URL), mentioning only the Reader it is for.
type discord struct {
	hook *discordhook.Hook // nil: the Owner set no readers' channel
}

type discordBody struct {
	Content         string          `json:"content"`
	AllowedMentions discordMentions `json:"allowed_mentions"`
}

// discordMentions with an empty parse list and one user pings that user
// and nobody else, whatever the text holds (@everyone, <@&role>, <@other>).
type discordMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users"`
}

func (discord) Name() string { return "discord" }

func (d discord) Targets(r Reader) []string {
	if d.hook == nil || !r.Settings.Discord {
		return nil
	}
	return []string{""}
}

func (d discord) Send(ctx context.Context, r Reader, _ string, dg Digest) error {
	content := "<@" + r.DiscordID + "> " + dg.Headline() + "\n" + dg.Text()
	if utf8.RuneCountInString(content) > 1900 { // Discord's limit is 2000
		content = string([]rune(content)[:1900]) + "…"
	}
	body, err := json.Marshal(discordBody{Content: strings.TrimSpace(content),
		AllowedMentions: discordMentions{Parse: []string{}, Users: []string{r.DiscordID}}})
	if err != nil {
		return err
	}
	return d.hook.Post(ctx, body)
}
