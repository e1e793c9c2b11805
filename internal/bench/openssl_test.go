package bench

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestParseSpeed(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      float64 // ns per message; 0: an error
	}{
		// What OpenSSL 3.0 prints with -mr.
		{"mr", "+DT:AES-128-OCB:1:44\n+R:2414150:AES-128-OCB:0.980000\n+H:44\n+F:25:AES-128-OCB:108390408.16\n", 0.98 / 2414150 * 1e9},
		{"crlf", "+DT:AES-128-OCB:1:44\r\n+R:2000000:AES-128-OCB:1.000000\r\n", 500},
		// Only the rate: 44 bytes at 44e6 bytes per second.
		{"rate", "+H:44\n+F:25:AES-128-OCB:44000000.00\n", 1000},
		// The human-readable line, in the old and the new wording.
		{"text", "Doing AES-128-OCB for 1s on 44 size blocks: 1000000 AES-128-OCB's in 0.50s\n", 500},
		{"text3", "Doing AES-128-OCB ops for 1s on 44 size blocks: 1000000 AES-128-OCB ops in 2.00s\n", 2000},
		{"error", "speed: Unknown algorithm aes-128-foo\n", 0},
		{"empty", "", 0},
		{"zero", "+R:0:AES-128-OCB:1.000000\n", 0},
	} {
		got, err := parseSpeed([]byte(tc.out), 44)
		switch {
		case tc.want == 0 && err == nil:
			t.Errorf("%s: parseSpeed = %v, want an error", tc.name, got)
		case tc.want != 0 && err != nil:
			t.Errorf("%s: parseSpeed: %v", tc.name, err)
		case tc.want != 0 && math.Abs(got-tc.want) > 1e-9*tc.want:
			t.Errorf("%s: parseSpeed = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestOpenSSLArgs(t *testing.T) {
	got := strings.Join(opensslArgs(opensslCipher{alg: "aes-128-ocb3", name: "aes-128-ocb", aead: true}, 1500), " ")
	if want := "speed -mr -aead -evp aes-128-ocb -seconds 1 -bytes 1500"; got != want {
		t.Errorf("AEAD: %q, want %q", got, want)
	}
	got = strings.Join(opensslArgs(opensslCipher{alg: "aes-128-ctr", name: "aes-128-ctr"}, 44), " ")
	if want := "speed -mr -evp aes-128-ctr -seconds 1 -bytes 44"; got != want {
		t.Errorf("CTR: %q, want %q", got, want)
	}
}

// fakeOpenSSL writes a stand-in for openssl that reports 1000 messages a
// second whatever it is asked, and returns its path.
func fakeOpenSSL(t *testing.T) string {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in is a shell script")
	}
	path := filepath.Join(t.TempDir(), "openssl")
	script := "#!/bin/sh\necho '+DT:FAKE:1:0'\necho '+R:1000:FAKE:1.000000'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunOpenSSLFake(t *testing.T) {
	ns, err := runOpenSSL(fakeOpenSSL(t), opensslCipher{name: "aes-128-gcm", aead: true}, 4096)
	if err != nil || ns != 1e6 {
		t.Errorf("runOpenSSL = %v, %v; want 1e6 ns", ns, err)
	}
	if _, err := runOpenSSL(filepath.Join(t.TempDir(), "none"), opensslCipher{name: "x"}, 16); err == nil {
		t.Error("a missing command ran")
	}
}

// TestOpenSSLReal runs the real openssl once, if there is one, to check
// that this version's output still parses.
func TestOpenSSLReal(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a second")
	}
	path, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("no openssl")
	}
	ns, err := runOpenSSL(path, opensslCipher{name: "aes-128-gcm", aead: true}, 1500)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("openssl aes-128-gcm, 1500 bytes: %.0f ns", ns)
	if ns <= 0 || ns > 1e7 {
		t.Errorf("openssl took %v ns for 1500 bytes", ns)
	}
}
