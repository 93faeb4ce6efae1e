package readernotice

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"mangabookmark/backend/discordhook"
)

// DiscordContentMax is how many characters of a message's content this
// server sends to Discord, under Discord's 2000.
const DiscordContentMax = 1900

// discord posts one message per Digest to the Owner's readers channel
// (DISCORD_READERS_WEBHOOK_URL), mentioning only the Reader it is for. A
// Digest too long for one message lists the chapters that fit, whole
// lines in order, then "… and N more: <library URL>", as ntfy does.
type discord struct {
	hook    *discordhook.Hook // nil: the Owner set no readers' channel
	baseURL string
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
	chars := utf8.RuneCountInString // Discord counts characters, not bytes
	head := "<@" + r.DiscordID + "> " + clipBy(dg.Headline(), DiscordContentMax/4, chars) + "\n"
	library := strings.TrimRight(d.baseURL, "/") + "/"
	text, _ := dg.textWithin(DiscordContentMax-chars(head), chars, func(k int) string {
		return fmt.Sprintf("… and %d more: %s", k, library)
	})
	content := head + text
	body, err := json.Marshal(discordBody{Content: strings.TrimSpace(content),
		AllowedMentions: discordMentions{Parse: []string{}, Users: []string{r.DiscordID}}})
	if err != nil {
		return err
	}
	return d.hook.Post(ctx, body)
}
