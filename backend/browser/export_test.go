package browser

// DropSocket closes the Browser's DevTools socket under it, as a network
// cut would, leaving the browser and its tab running.
func DropSocket(b *Browser) {
	b.mu.Lock()
	c := b.c
	b.mu.Unlock()
	if c != nil {
		_ = c.ws.Close()
		<-c.lost
	}
}
