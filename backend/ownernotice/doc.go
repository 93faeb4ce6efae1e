// Package ownernotice carries owner notices out of the backend: one Discord
// embed per episode, posted to the webhook named by DISCORD_WEBHOOK_URL.
//
// It owns the transport and the payload only. Which faults are pushed,
// when, and how often is decided by the Lanes (backend/lanes), which hold a
// Func; a nil Func means the path is off. The webhook URL carries Discord's
// secret token, so it is never logged and never appears in an error.
package ownernotice
