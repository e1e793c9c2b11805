package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// opensslSizes are the message lengths OpenSSL runs at: the IPI's four,
// 4096 and 16384. openssl speed runs one length for at least a second, so
// it gets fewer lengths than the Go implementations.
var opensslSizes = []int{44, 552, 576, 1500, 4096, 16384}

// opensslSeconds is the -seconds of every openssl run, the least it takes.
const opensslSeconds = 1

// opensslTime is what one openssl run is expected to take, start-up
// included, for planning.
const opensslTime = opensslSeconds*time.Second + 50*time.Millisecond

// opensslArgs returns the arguments of one openssl speed run. AEADs run
// with -aead, OpenSSL's per-message loop (set the nonce, 13 bytes of
// associated data, the message, the tag), the nearest thing to one Seal;
// without it openssl speed streams one endless message through
// EVP_EncryptUpdate and never makes a tag. CTR has no messages and runs
// without it. -mr asks for the machine-readable lines parseSpeed reads.
func opensslArgs(c opensslCipher, n int) []string {
	args := []string{"speed", "-mr"}
	if c.aead {
		args = append(args, "-aead")
	}
	return append(args, "-evp", c.name, "-seconds", strconv.Itoa(opensslSeconds), "-bytes", strconv.Itoa(n))
}

// runOpenSSL runs openssl speed on messages of n bytes and returns the time
// of one message in nanoseconds.
func runOpenSSL(command string, c opensslCipher, n int) (float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opensslTime+time.Minute)
	defer cancel()
	args := opensslArgs(c, n)
	out, err := exec.CommandContext(ctx, command, args...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s %s: %v: %s", command, strings.Join(args, " "), err, firstLine(out))
	}
	ns, err := parseSpeed(out, n)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %v", command, strings.Join(args, " "), err)
	}
	return ns, nil
}

// speedLine matches openssl speed's human-readable result, as in
// "2414150 aes-128-ocb's in 0.98s" or "Doing ... : 2414150 AES-128-OCB ops in 0.98s".
var speedLine = regexp.MustCompile(`(\d+) \S+(?:'s| ops) in ([0-9.]+)s`)

// parseSpeed reads the output of openssl speed for messages of n bytes and
// returns the time of one message in nanoseconds. It prefers the
// machine-readable count line, "+R:COUNT:NAME:SECONDS", and falls back on
// the rate line, "+F:INDEX:NAME:BYTES_PER_SECOND", and then on the
// human-readable count, so that the format of another version of OpenSSL
// still reads. The seconds are openssl's own measure: user CPU time unless
// it is run with -elapsed.
func parseSpeed(out []byte, n int) (float64, error) {
	var fromRate, fromText float64
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSpace(line)
		f := strings.Split(line, ":")
		switch {
		case f[0] == "+R" && len(f) >= 4:
			count, err1 := strconv.ParseFloat(f[1], 64)
			secs, err2 := strconv.ParseFloat(f[len(f)-1], 64)
			if err1 == nil && err2 == nil && count > 0 && secs > 0 {
				return secs / count * 1e9, nil
			}
		case f[0] == "+F" && len(f) >= 4:
			rate, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err == nil && rate > 0 {
				fromRate = float64(n) / rate * 1e9
			}
		default:
			if m := speedLine.FindStringSubmatch(line); m != nil {
				count, err1 := strconv.ParseFloat(m[1], 64)
				secs, err2 := strconv.ParseFloat(m[2], 64)
				if err1 == nil && err2 == nil && count > 0 && secs > 0 {
					fromText = secs / count * 1e9
				}
			}
		}
	}
	switch {
	case fromRate > 0:
		return fromRate, nil
	case fromText > 0:
		return fromText, nil
	}
	return 0, fmt.Errorf("no result in its output: %s", firstLine(out))
}

func firstLine(b []byte) string {
	b = bytes.TrimSpace(b)
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) == 0 {
		return "(no output)"
	}
	return string(b)
}
