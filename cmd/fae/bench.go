package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/faelabs/fae/gpu"
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
  --gpu             measure the GPU modes instead: AES-128 CTR, OCB3 and
                    RAOCB end to end, 1 MiB to 4 GiB (fails without a GPU;
                    takes no other flag but --quiet)
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
	case a.gpu && len(set) > 1 && !(len(set) == 2 && set["quiet"]):
		return usageErrorf("--gpu measures a fixed set and takes no other flag but --quiet")
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
		return benchGPU(stdout)
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
		n, err := parseDecimal(a.batch)
		if err != nil {
			return usageErrorf("--batch: %v", err)
		}
		if n < 1 || n > bench.MaxBatch {
			return usageErrorf("--batch: %d messages out of range 1..%d", n, bench.MaxBatch)
		}
		c.Batch = int(n)
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

// benchGPU measures the GPU modes end to end, host memory to host memory,
// best of three runs per size, on Go memory (staged through pinned
// buffers) and on memory from gpu.AllocHost (DMA alone), with the default
// bitsliced kernels and with the table-based ones. Kernel-only figures and
// the copy bandwidth come from the gpu package's benchmarks
// (scripts/gpu-check.sh).
func benchGPU(w io.Writer) error {
	if err := gpu.Available(); err != nil {
		return err
	}
	for _, kind := range []struct {
		name string
		opts []gpu.Option
	}{{"bitsliced", nil}, {"tables", []gpu.Option{gpu.WithTables()}}} {
		if err := benchGPUKernels(w, kind.name, kind.opts); err != nil {
			return err
		}
	}
	return nil
}

func benchGPUKernels(w io.Writer, kind string, opts []gpu.Option) error {
	key, nonce := make([]byte, 16), make([]byte, 12)
	c, err := gpu.NewCTR(key, make([]byte, 16), opts...)
	if err != nil {
		return err
	}
	o, err := gpu.NewOCB(key, opts...)
	if err != nil {
		return err
	}
	r, err := gpu.NewRAOCB(key, opts...)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-8s %12s %12s %12s %12s %12s %12s   (GPU end to end, %s kernels, AES-128, Gbit/s)\n",
		"size", "ctr", "ocb3", "raocb", "ctr-pinned", "ocb3-pinned", "raocb-pinned", kind)
	// n is an int64 so that 32-bit builds compile; they cannot allocate
	// 4 GiB, but have no CUDA driver either.
	for n := int64(1) << 20; n <= 4<<30; n <<= 2 {
		pinned, err := gpu.AllocHost(int(n + 16))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-8s", strconv.FormatInt(n>>20, 10)+"MiB")
		for _, buf := range [][]byte{make([]byte, n+16), pinned} {
			for _, f := range []func(){
				func() { c.XORKeyStream(buf[:n], buf[:n]) },
				func() { o.Seal(buf[:0], nonce, buf[:n], nil) },
				func() { r.Seal(buf[:0], nonce, buf[:n], nil) },
			} {
				best := time.Duration(1 << 62)
				for range 3 {
					t := time.Now()
					f()
					best = min(best, time.Since(t))
				}
				fmt.Fprintf(w, " %12.1f", float64(n)*8/best.Seconds()/1e9)
			}
		}
		fmt.Fprintln(w)
		if err := gpu.FreeHost(pinned); err != nil {
			return err
		}
	}
	return nil
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
