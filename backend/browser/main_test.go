package browser_test

import (
	"os"
	"testing"

	"mangabookmark/backend/browser/chromiumtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	chromiumtest.StopShared()
	os.Exit(code)
}
