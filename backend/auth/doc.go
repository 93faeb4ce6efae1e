// Package auth owns who may call the API: API tokens (random, shown once,
// stored only as an HMAC-SHA256 under TOKEN_KEY, revocable, last use kept
// to the minute) and the Discord OAuth2 login that mints a token for a
// member of the guild. Service implements Authenticator; the Identity it
// resolves to lives here, so backend/api depends on auth and never the
// reverse. The Owner is the Reader whose Discord id is OWNER_DISCORD_ID.
package auth
