// Package deploy holds the deployment files' checks: base images pinned by
// digest, secrets kept out of git and of the image build context, the
// database and the browser's DevTools port reachable from the backend only.
package deploy

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lines(s string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		out[strings.TrimSpace(l)] = true
	}
	return out
}

var digest = regexp.MustCompile(`@sha256:[0-9a-f]{64}$`)

func TestImagesPinnedByDigest(t *testing.T) {
	for _, l := range strings.Split(read(t, "../Dockerfile"), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && strings.EqualFold(f[0], "FROM") && f[1] != "scratch" && !digest.MatchString(f[1]) {
			t.Errorf("Dockerfile: %q is not pinned by digest", l)
		}
	}
	n := 0
	for _, l := range strings.Split(read(t, "../compose.yaml"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "image:"); ok {
			n++
			if !digest.MatchString(strings.TrimSpace(v)) {
				t.Errorf("compose.yaml: %q is not pinned by digest", l)
			}
		}
	}
	if n == 0 {
		t.Error("compose.yaml names no image")
	}
}

func TestSecretsStayOut(t *testing.T) {
	if !lines(read(t, "../.gitignore"))[".env"] {
		t.Error(".gitignore does not ignore .env")
	}
	ign := lines(read(t, "../.dockerignore"))
	for _, p := range []string{".git", ".env", ".data", "bin"} {
		if !ign[p] {
			t.Errorf(".dockerignore does not exclude %s", p)
		}
	}
}

// services splits compose.yaml's services into their text blocks.
func services(t *testing.T, compose string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_, rest, ok := strings.Cut(compose, "\nservices:\n")
	if !ok {
		t.Fatal("compose.yaml has no services")
	}
	name := ""
	for _, l := range strings.Split(rest, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			break // the next top-level key
		}
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && strings.HasSuffix(l, ":") {
			name = strings.TrimSuffix(strings.TrimSpace(l), ":")
			continue
		}
		if name != "" {
			out[name] += l + "\n"
		}
	}
	return out
}

func TestOnlyTheBackendReachesDatabaseAndDevTools(t *testing.T) {
	compose := read(t, "../compose.yaml")
	svc := services(t, compose)
	for _, want := range []string{"db", "chrome", "backend"} {
		if svc[want] == "" {
			t.Fatalf("compose.yaml: no service %q (found %v)", want, len(svc))
		}
	}
	if !strings.Contains(compose, "\n  data:\n    internal: true\n") {
		t.Error("compose.yaml: the database network is not internal")
	}
	for name, body := range svc {
		onData := strings.Contains(body, "networks: [data") || strings.Contains(body, ", data]")
		if (name == "db" || name == "backend") != onData {
			t.Errorf("service %s: on the database network %v; only db and backend may be", name, onData)
		}
		if name != "backend" && strings.Contains(body, "ports:") {
			t.Errorf("service %s publishes a port; only the backend may", name)
		}
		if strings.Contains(body, "9222:") {
			t.Errorf("service %s publishes the DevTools port", name)
		}
	}
}

// Every container has a memory limit, and the backend's Go heap a soft
// limit under it, in the image, compose and the systemd unit (issue 23
// item 1: one Reader's bodies once took 5 GiB).
func TestMemoryIsBounded(t *testing.T) {
	for name, body := range services(t, read(t, "../compose.yaml")) {
		if !strings.Contains(body, "mem_limit:") {
			t.Errorf("service %s has no mem_limit", name)
		}
		if name == "backend" && !strings.Contains(body, "GOMEMLIMIT:") {
			t.Errorf("service backend sets no GOMEMLIMIT")
		}
	}
	if !strings.Contains(read(t, "../Dockerfile"), "ENV GOMEMLIMIT=") {
		t.Error("Dockerfile sets no GOMEMLIMIT")
	}
	unit := lines(read(t, "mangabookmark.service"))
	if !unit["MemoryMax=512M"] || !unit["Environment=GOMEMLIMIT=400MiB"] {
		t.Error("mangabookmark.service sets no MemoryMax and GOMEMLIMIT")
	}
}

// Every container runs without root and without privileges: a non-root
// user, no capabilities, no new privileges, a read-only root; secrets come
// as files, never as `environment:` values; and the backend connects as a
// role that is no superuser (issue 23).
func TestContainersRunUnprivileged(t *testing.T) {
	compose := read(t, "../compose.yaml")
	for name, body := range services(t, compose) {
		for _, want := range []string{"user: \"", "cap_drop: [ALL]", `security_opt: ["no-new-privileges:true"]`, "read_only: true"} {
			if !strings.Contains(body, want) {
				t.Errorf("service %s lacks %s", name, want)
			}
		}
		if strings.Contains(body, `user: "0`) || strings.Contains(body, "user: root") {
			t.Errorf("service %s runs as root", name)
		}
		for _, secret := range []string{"PASSWORD:", "TOKEN_KEY:", "DATABASE_URL:", "CLIENT_SECRET:", "WEBHOOK_URL:"} {
			if strings.Contains(body, secret) {
				t.Errorf("service %s passes %s in its environment; mount it as a secret file", name, strings.TrimSuffix(secret, ":"))
			}
		}
	}
	if !strings.Contains(compose, "\nsecrets:\n") {
		t.Error("compose.yaml declares no secrets")
	}
	role := read(t, "initdb/10-app-role.sh")
	if !strings.Contains(role, "NOSUPERUSER") || !strings.Contains(compose, "mangabookmark_app:") {
		t.Error("the backend's database role is not a non-superuser role of its own")
	}
}
