// Package startstop is the one shape of a background service's life:
// Start(ctx) runs its loop in a goroutine, Stop cancels the loop's context
// and waits for it to return. The services with a background loop
// (admin's recounter, the import resumer, the Reader notice sender, the
// Lanes' Manager) embed
// a Loop rather than each keeping its own mutex, cancel func and done
// channel. It imports nothing of the project (river's startstop is the
// model).
package startstop

import (
	"context"
	"sync"
)

// Loop runs one background function at a time. The zero value is ready.
//
//   - Start while it runs is a no-op: the first loop goes on, nothing leaks.
//   - Stop cancels the context Start gave the function and waits for it to
//     return; Stop before Start, or twice, is a no-op.
//   - After Stop, Start runs the function again.
//
// A Loop is safe for concurrent use.
type Loop struct {
	mu     sync.Mutex
	cancel context.CancelFunc // nil when nothing runs
	done   chan struct{}      // closed when the running function returns
}

// Start runs run(ctx') in a new goroutine, where ctx' ends at Stop or when
// ctx does. It reports false, and runs nothing, when a loop already runs.
func (l *Loop) Start(ctx context.Context, run func(ctx context.Context)) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancel != nil {
		return false
	}
	ctx, l.cancel = context.WithCancel(ctx)
	done := make(chan struct{})
	l.done = done
	go func() {
		defer close(done)
		run(ctx)
	}()
	return true
}

// Stop cancels the running loop's context and waits until it returns.
func (l *Loop) Stop() {
	l.mu.Lock()
	cancel, done := l.cancel, l.done
	l.cancel, l.done = nil, nil
	l.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}
