package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/faelabs/fae/internal/bench"
)

const benchSynopsis = "[--algs LIST] [--sizes LIST] [--full] [--ad N] [--quick] [--preset NAME] " +
	"[--format text|md|csv|json] [--out DIR] [--quiet] [--gpu] [--batch N]"

const benchHelp = `Bench measures every algorithm, Seal and Open, beside AES-CTR and the peers
(Go's crypto/cipher, golang.org/x/crypto, ProtonMail's OCB and the openssl
command), and prints a table in cycles per byte at the calibrated core
clock: cycles per byte at 4096 bytes, overhead over AES-CTR, the Internet
Performance Index, cycles per byte at 16 KiB, context size and key-setup
cycles. A row's impl names whose code ran: "fae", or for the registry's
ChaCha20-Poly1305 golang.org/x/crypto's ("x/crypto"). It takes under three
minutes; --quick about ten seconds.

Flags of bench (numbers in decimal):
  --algs LIST       comma-separated names or globs ("aes-*-ocb3"); the names
                    are those of 'fae list' and aes-128-ctr, aes-192-ctr,
                    aes-256-ctr. Default: all
  --sizes LIST      message lengths in bytes, comma-separated: 1500, 4K (4096)
                    or a range 1..64
  --full            every length from 1 to 2048 as well (takes minutes; not
                    with --sizes)
  --ad N            bytes of associated data in every message (default 0)
  --quick           about ten seconds: fewer trials, short time slices
  --preset NAME     a named comparison: rocca (the rust-rocca-s table:
                    16384-byte messages in bytes per second); not with
                    --algs, --sizes or --full
  --format F        text (default), md, csv (one line per figure) or json
  --out DIR         also write table.md and results.json into DIR; in fae's
                    source tree, 'go run ./internal/cmd/benchplot DIR' draws
                    the plots from them
  --quiet           no progress bar or notes on standard error
  --gpu             measure the GPU instead (fails without one): AES-128
                    CTR, OCB3 and RAOCB, 1 MiB to 4 GiB (--quick: 16 and 256
                    MiB), each kernel alone and end to end from pinned and
                    Go memory, bitsliced and table kernels side by side,
                    and batches of --batch N messages of 1500 bytes
                    (default 1048576, at most 16777216); takes --quiet,
                    --quick, --format text or json and --batch only
  --batch N         also measure batches of N messages of each length per
                    call (SealBatch and OpenBatch, package batch) for every
                    algorithm with a batch API: rows "seal xN", "open xN"
                    and the summary's "IPI xN"; others (chacha20-poly1305)
                    are skipped with a note. N is 1 to 4096
Run it on an otherwise idle machine: other processes add noise, which
shows in the spread that the JSON and CSV report for every figure.
`

// benchArgs holds bench's flags as flags sets them.
type benchArgs struct {
	algs, sizes, ad, preset, format, out, batch string
	full, quick, quiet, gpu                     bool
}

// flags returns bench's flag set, which writes into a.
func (a *benchArgs) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.algs, "algs", "", "")
	fs.StringVar(&a.sizes, "sizes", "", "")
	fs.BoolVar(&a.full, "full", false, "")
	fs.StringVar(&a.ad, "ad", "0", "")
	fs.BoolVar(&a.quick, "quick", false, "")
	fs.StringVar(&a.preset, "preset", "", "")
	fs.StringVar(&a.format, "format", "text", "")
	fs.StringVar(&a.out, "out", "", "")
	fs.BoolVar(&a.quiet, "quiet", false, "")
	fs.BoolVar(&a.gpu, "gpu", false, "")
	fs.StringVar(&a.batch, "batch", "", "")
	return fs
}

func runBench(args []string, _ io.Reader, stdout io.Writer) error {
	var a benchArgs
	fs := a.flags()
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return err
	} else if err != nil {
		return usageErrorf("%v", err)
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["preset"] && (set["algs"] || set["sizes"] || set["full"]):
		return usageErrorf("--preset chooses the algorithms and lengths itself")
	case set["full"] && set["sizes"]:
		return usageErrorf("--full and --sizes both choose the lengths")
	case !slices.Contains(bench.Formats, a.format):
		return usageErrorf("--format: unknown format %q (known: %s)", a.format, strings.Join(bench.Formats, ", "))
	case set["out"] && a.out == "":
		return usageErrorf("--out: empty directory name")
	}
	if a.gpu {
		return benchGPU(stdout, &a, set)
	}
	c := bench.Config{Full: a.full, Quick: a.quick}
	var p bench.Preset
	if set["preset"] {
		var ok bool
		if p, ok = bench.LookupPreset(a.preset); !ok {
			return usageErrorf("--preset: unknown preset %q (known: %s)", a.preset, bench.PresetNames())
		}
		c.Algs, c.Sizes = p.Algs, p.Sizes
	}
	if a.algs != "" {
		c.Algs = strings.Split(a.algs, ",")
	}
	if set["sizes"] {
		s, err := parseSizes(a.sizes)
		if err != nil {
			return usageErrorf("--sizes: %v", err)
		}
		c.Sizes = s
	}
	ad, err := parseDecimal(a.ad)
	if err != nil {
		return usageErrorf("--ad: %v", err)
	}
	c.AD = int(min(ad, math.MaxInt32)) // Validate refuses what is out of range
	if set["batch"] {
		if c.Batch, err = parseBatch(a.batch, bench.MaxBatch, "--batch"); err != nil {
			return err
		}
	}
	if err := c.Validate(); err != nil {
		return usageError{err}
	}

	var bar *progressbar.ProgressBar
	if !a.quiet {
		c.Log = os.Stderr
		if term.IsTerminal(int(os.Stderr.Fd())) {
			bar = progressbar.NewOptions64(1,
				progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionShowDescriptionAtLineEnd(),
				progressbar.OptionClearOnFinish())
			c.Log = clearing{bar, os.Stderr}
			c.Progress = func(done, total time.Duration, step string) {
				bar.ChangeMax64(max(total.Milliseconds(), 1))
				bar.Describe(step)
				bar.Set64(done.Milliseconds())
			}
		}
	}
	r, err := bench.Run(c)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	if set["preset"] && (a.format == "text" || a.format == "md") {
		err = r.WritePreset(stdout, p, a.format == "md")
	} else {
		err = r.Write(stdout, a.format)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if a.out != "" {
		if err := r.WriteDir(a.out); err != nil {
			return fmt.Errorf("writing %s: %w", a.out, err)
		}
	}
	return nil
}

// benchGPU measures package gpu (bench.RunGPU): the flags it takes are
// --quiet, --quick, --format text or json, and --batch N, the messages of
// the batch rows (default bench.GPUBatch).
func benchGPU(stdout io.Writer, a *benchArgs, set map[string]bool) error {
	for _, name := range slices.Sorted(maps.Keys(set)) {
		if !slices.Contains([]string{"gpu", "quiet", "quick", "format", "batch"}, name) {
			return usageErrorf("--gpu takes no --%s (only --quiet, --quick, --format and --batch)", name)
		}
	}
	if a.format != "text" && a.format != "json" {
		return usageErrorf("--gpu: --format text or json, not %q", a.format)
	}
	c := bench.GPUConfig{Batch: bench.GPUBatch}
	if set["batch"] {
		var err error
		if c.Batch, err = parseBatch(a.batch, bench.MaxGPUBatch, "--gpu: --batch"); err != nil {
			return err
		}
	}
	if a.quick {
		c.Sizes = []int{16 << 20, 256 << 20}
	}
	if !a.quiet {
		c.Log = os.Stderr
	}
	r, err := bench.RunGPU(c)
	if err != nil {
		return err
	}
	if a.format == "json" {
		err = r.Write(stdout, "json")
	} else {
		err = r.WriteGPU(stdout)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// parseBatch reads --batch's number of messages, 1 to max; flag names the
// flag in errors.
func parseBatch(s string, max int, flag string) (int, error) {
	n, err := parseDecimal(s)
	if err != nil {
		return 0, usageErrorf("%s: %v", flag, err)
	}
	if n < 1 || n > int64(max) {
		return 0, usageErrorf("%s: %d messages out of range 1..%d", flag, n, max)
	}
	return int(n), nil
}

// clearing writes to w after clearing the progress bar from the line, so
// that a note does not land in the middle of the bar.
type clearing struct {
	bar *progressbar.ProgressBar
	w   io.Writer
}

func (c clearing) Write(p []byte) (int, error) {
	c.bar.Clear()
	return c.w.Write(p)
}

// maxLengths bounds the number of lengths --sizes may list.
const maxLengths = 1 << 16

// parseSizes reads a comma-separated list of lengths: 1500, 4K (4096 bytes)
// or a range such as 1..64.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(f), "..")
		a, err := parseSize(lo)
		if err != nil {
			return nil, err
		}
		if !isRange {
			sizes = append(sizes, a)
			continue
		}
		b, err := parseSize(hi)
		if err != nil {
			return nil, err
		}
		if b < a || len(sizes)+b-a >= maxLengths {
			return nil, fmt.Errorf("bad range %q", f)
		}
		for n := a; n <= b; n++ {
			sizes = append(sizes, n)
		}
	}
	return sizes, nil
}

func parseSize(s string) (int, error) {
	digits, mult := s, 1
	if t, ok := strings.CutSuffix(strings.ToUpper(s), "K"); ok {
		digits, mult = t, 1024
	}
	n, err := parseDecimal(digits)
	if err != nil || n < 1 || n > int64(bench.MaxSize/mult) {
		return 0, fmt.Errorf("bad length %q (1 to %d bytes, in decimal)", s, bench.MaxSize)
	}
	return int(n) * mult, nil
}
