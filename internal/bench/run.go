package bench

import (
	"bufio"
	"cmp"
	"crypto/cipher"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/faelabs/fae/batch"
)

// defaultSizes are the message lengths of a run: Krovetz and Rogaway's, the
// IPI's and a few large ones.
var defaultSizes = []int{16, 32, 44, 64, 128, 256, 512, 552, 576, 1024, 1500, 2048, 4096, 8192, 16384, 65536}

// fullMax is the longest of the every-length range that Config.Full adds.
const fullMax = 2048

// Limits of Config.
const (
	MaxSize = 1 << 24 // longest message
	maxAD   = 1 << 20 // most associated data
	// MaxBatch is the most messages per batch, and maxBatchBytes the most
	// bytes a batch of the longest length holds.
	MaxBatch      = 4096
	maxBatchBytes = 1 << 28
)

// Time budgets: what a run aims to take, by kind of run.
const (
	quickBudget   = 10 * time.Second
	defaultBudget = 150 * time.Second
	fullBudget    = 10 * time.Minute
)

// Bounds of the time slice of one trial; the budget picks a slice between.
const (
	minSlice = 200 * time.Microsecond
	maxSlice = 10 * time.Millisecond
)

// Config says what Run measures. Its zero value is the default run: every
// algorithm, defaultSizes, no associated data, the openssl command from
// PATH.
type Config struct {
	// Algs selects algorithms by name or path.Match glob ("aes-*-ocb3");
	// empty selects all. The names are fae's registered AEADs and
	// aes-128-ctr, aes-192-ctr and aes-256-ctr. fae's AES-CTR with the
	// key size of each selected AEAD is always measured, as the reference
	// of its overhead.
	Algs []string
	// Sizes are the message lengths; empty means defaultSizes, and with
	// Full every length from 1 to 2048 and the longer defaultSizes.
	Sizes []int
	Full  bool
	// AD is the length of the associated data of every message.
	AD int
	// Batch, when positive, adds for every algorithm with a batch API
	// (fae.Info.Batch) the figures of SealBatch and OpenBatch on Batch
	// messages of each length per call, and their IPI to the summary;
	// the others are skipped with a note.
	Batch int
	// Quick aims at about ten seconds: 5 trials instead of 7, short time
	// slices, and OpenSSL's AEADs only, at one length only (the longest of
	// its lengths selected, 16384 by default), since openssl speed runs a
	// length for at least a second.
	Quick bool
	// Log, if set, receives notes while the run goes: the clock found,
	// what is skipped.
	Log io.Writer
	// Progress, if set, is called before each step with the estimated
	// time done and in all, and what the step measures.
	Progress func(done, total time.Duration, step string)

	// budget is the time the run aims to take; zero means quickBudget,
	// defaultBudget or fullBudget. It sets the time slice of each trial,
	// within bounds, so more algorithms make each trial shorter. Tests
	// set it, and openssl, to stay short and hermetic.
	budget time.Duration
	// openssl is the openssl command; empty means "openssl" from PATH.
	// When it cannot be found, OpenSSL's rows are left out with a note.
	openssl string
}

// Validate reports a mistake in c: a pattern that selects nothing, a
// length or AD out of range. Run calls it first; a command line tool can
// call it to tell usage errors from failures.
func (c *Config) Validate() error {
	if _, err := makePlan(c.Algs); err != nil {
		return err
	}
	for _, n := range c.Sizes {
		if n < 1 || n > MaxSize {
			return fmt.Errorf("message length %d out of range 1..%d", n, MaxSize)
		}
	}
	if c.AD < 0 || c.AD > maxAD {
		return fmt.Errorf("associated data length %d out of range 0..%d", c.AD, maxAD)
	}
	if c.Batch < 0 || c.Batch > MaxBatch {
		return fmt.Errorf("batch of %d messages out of range 1..%d", c.Batch, MaxBatch)
	}
	if longest := slices.Max(c.sizes()); c.Batch > 0 && longest > maxBatchBytes/c.Batch { // no product: int is 32 bits on 386
		return fmt.Errorf("a batch of %d messages of %d bytes is over %d MiB", c.Batch, longest, maxBatchBytes>>20)
	}
	return nil
}

func (c *Config) sizes() []int {
	s := c.Sizes
	if len(s) == 0 {
		s = defaultSizes
		if c.Full {
			s = nil
			for n := 1; n <= fullMax; n++ {
				s = append(s, n)
			}
			for _, n := range defaultSizes {
				if n > fullMax {
					s = append(s, n)
				}
			}
		}
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func (c *Config) timeBudget() time.Duration {
	switch {
	case c.budget > 0:
		return c.budget
	case c.Quick:
		return quickBudget
	case c.Full:
		return fullBudget
	}
	return defaultBudget
}

func (c *Config) trials() int {
	if c.Quick {
		return 5
	}
	return 7
}

// Run measures what c selects and returns the report. It takes over the
// calling goroutine's OS thread and turns the garbage collector off while
// it runs (see the package doc).
func Run(c Config) (*Report, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	p, err := makePlan(c.Algs)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: &c, plan: p, sizes: c.sizes(), trials: c.trials(), log: c.Log}
	if r.log == nil {
		r.log = io.Discard
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	return r.run()
}

// runner holds the state of one Run.
type runner struct {
	cfg    *Config
	plan   *plan
	sizes  []int
	trials int
	log    io.Writer

	clock   calibration // the latest, which the figures measured next use
	clocks  []float64   // every calibration's GHz, in order
	slice   time.Duration
	openssl string // the command, once found
	osSizes []int  // OpenSSL's lengths in this run
	done    time.Duration
	total   time.Duration
	notes   []string
	results []Result
	extras  map[rowKey]extras

	allocates map[rowKey]bool // implementations noted as allocating
}

func (r *runner) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	r.notes = append(r.notes, s)
	fmt.Fprintln(r.log, s)
}

// calibrationSlice and calibrationTrials set one clock calibration, about
// 0.15 s long. steadySpread and calibrationTries set calibrateSteady.
const (
	calibrationSlice  = 10 * time.Millisecond
	calibrationTrials = 11
	steadySpread      = 0.05
	calibrationTries  = 5
)

// calibrateSteady calibrates until the trials' spread is at most
// steadySpread, up to calibrationTries times, and returns the calibration
// with the least spread: other processes only ever make the clock read
// slow, and a wide spread says they were there.
func calibrateSteady() (calibration, error) {
	var best calibration
	var err error
	for range calibrationTries {
		var c calibration
		c, err = calibrate(calibrationSlice, calibrationTrials)
		if err == nil && (best.GHz == 0 || c.Spread < best.Spread) {
			best = c
		}
		if best.GHz != 0 && best.Spread <= steadySpread {
			break
		}
	}
	if best.GHz == 0 {
		return calibration{}, err
	}
	return best, nil
}

func (r *runner) run() (*Report, error) {
	if err := r.calibrate(); err != nil {
		return nil, err
	}
	fmt.Fprintf(r.log, "core clock: %.3f GHz (%s dependent-add chain, median of %d, spread %.1f%%)\n",
		r.clock.GHz, r.clock.Kernel, r.clock.Trials, 100*r.clock.Spread)
	r.planOpenSSL()
	r.planTime()

	r.extras = map[rowKey]extras{}
	r.allocates = map[rowKey]bool{}
	for i, s := range r.plan.subjects {
		if i > 0 && s.alg != r.plan.subjects[i-1].alg {
			r.calibrate() // on failure the last clock stands
		}
		if err := r.measureSubject(s); err != nil {
			return nil, err
		}
	}
	r.runOpenSSL()

	ghz, spread := medianSpread(r.clocks)
	if spread > 0.03 {
		r.note("the core clock moved during the run, between %.3f and %.3f GHz; each algorithm's cycles use the clock calibrated just before it ran",
			slices.Min(r.clocks), slices.Max(r.clocks))
	}
	sortResults(r.results)
	ctrRef := map[string]string{}
	for _, s := range r.plan.subjects {
		ctrRef[s.alg] = ctrName(s.keySize)
	}
	return &Report{
		Machine: Machine{CPU: cpuName(), GHz: round(ghz), Go: runtime.Version(), Cores: runtime.NumCPU()},
		Results: r.results,
		Summary: summarize(r.results, r.extras, ctrRef),
		ADBytes: r.cfg.AD,
		Trials:  r.trials,
		Notes:   r.notes,
	}, nil
}

// calibrate measures the core clock for the figures that follow. A core
// clock may move during a run (with the load of other virtual machines on
// the host, or with temperature), so Run calibrates before each algorithm
// and each OpenSSL cipher: the rows of one algorithm, fae's and its peers',
// then share one clock, and their ratios are ratios of times.
func (r *runner) calibrate() error {
	c, err := calibrateSteady()
	if err != nil {
		return err
	}
	r.clock = c
	r.clocks = append(r.clocks, c.GHz)
	return nil
}

// planOpenSSL finds the openssl command and OpenSSL's lengths in this run.
func (r *runner) planOpenSSL() {
	if len(r.plan.openssl) == 0 {
		return
	}
	var sizes []int
	for _, n := range opensslSizes {
		if slices.Contains(r.sizes, n) {
			sizes = append(sizes, n)
		}
	}
	if len(sizes) == 0 {
		r.note("openssl: skipped: it runs only at %s bytes, and none is selected", joinInts(opensslSizes))
		return
	}
	path, err := exec.LookPath(cmp.Or(r.cfg.openssl, "openssl"))
	if err != nil {
		r.note("openssl: skipped: %v", err)
		return
	}
	if r.cfg.Quick {
		sizes = sizes[len(sizes)-1:]
		r.plan.openssl = slices.DeleteFunc(r.plan.openssl, func(c opensslCipher) bool { return !c.aead })
		r.note("openssl: --quick runs only its AEADs, at %d bytes, since openssl speed takes at least a second a length", sizes[0])
	}
	r.openssl, r.osSizes = path, sizes
}

// units is the number of measurements in the run, each trials+1 time
// slices long (the trials and the warm-up that finds the iteration count).
func (r *runner) units() int {
	n := 0
	for _, s := range r.plan.subjects {
		n++ // the constructor
		switch {
		case s.newStream != nil:
			n += len(r.sizes)
		case s.batch && r.cfg.Batch > 0:
			n += 4*len(r.sizes) + 2 // and the messages of mixed lengths
		default:
			n += 2 * len(r.sizes)
		}
	}
	return n
}

// planTime sets the time slice of a trial so that the run fits its budget,
// and the estimate of the whole that Progress reports.
func (r *runner) planTime() {
	opensslTotal := time.Duration(len(r.plan.openssl)*len(r.osSizes)) * opensslTime
	calibrations := time.Duration(len(r.plan.subjects)+len(r.plan.openssl)) * calibrationTrials * calibrationSlice * 5 / 4
	rest := r.cfg.timeBudget() - opensslTotal - calibrations
	rest = max(rest, r.cfg.timeBudget()*3/10) // however long OpenSSL takes
	r.slice = min(max(rest/time.Duration(r.units()*(r.trials+1)), minSlice), maxSlice)
	r.total = time.Duration(r.units()*(r.trials+1))*r.slice + opensslTotal
}

func (r *runner) step(d time.Duration, what string) {
	if r.cfg.Progress != nil {
		r.cfg.Progress(r.done, r.total, what)
	}
	r.done += d
}

// sink keeps what the measured loops make alive.
//
//lint:ignore U1000 written to keep results alive, never read
var sink any

// measureSubject measures one implementation: its context size, its
// constructor, and Seal and Open (for CTR, encryption) at every length.
func (r *runner) measureSubject(s subject) error {
	key := make([]byte, s.keySize)
	for i := range key {
		key[i] = byte(i)
	}
	iv := make([]byte, 16)
	name := s.alg + " (" + s.impl + ")"
	r.step(r.slot(), name+": key setup")
	var value any
	var ctor func(n int)
	var err error
	if s.newStream != nil {
		value, err = s.newStream(key, iv)
		ctor = func(n int) {
			for range n {
				sink, _ = s.newStream(key, iv)
			}
		}
	} else {
		value, err = s.newAEAD(key)
		ctor = func(n int) {
			for range n {
				sink, _ = s.newAEAD(key)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("bench: %s: %v", name, err)
	}
	init := measure(ctor, r.slice, r.trials, true)
	sink = nil
	r.extras[rowKey{s.alg, s.impl}] = extras{
		contextBytes: ptr(contextSize(value)),
		initCycles:   ptr(math.Round(init.ns * r.clock.GHz)),
	}

	if st, ok := value.(cipher.Stream); ok {
		return r.measureOps(s, name, "seal", variant{loop: func(msg, buf []byte) (func(int), error) {
			out := buf[:len(msg)]
			// Each message starts at a block boundary, as an AEAD's
			// counter mode does: the rest of a partial last block's
			// keystream is used up (not left to start the next message
			// off its boundary, in another branch of XORKeyStream, which
			// measured a 64-byte message three times as long after
			// 44-byte ones).
			pad := buf[len(msg) : len(msg)+(-len(msg))&15]
			if len(pad) == 0 {
				return func(n int) {
					for range n {
						st.XORKeyStream(out, msg)
					}
				}, nil
			}
			return func(n int) {
				for range n {
					st.XORKeyStream(out, msg)
					st.XORKeyStream(pad, pad)
				}
			}, nil
		}})
	}
	a := value.(cipher.AEAD)
	nonce := make([]byte, a.NonceSize())
	ad := make([]byte, r.cfg.AD)
	seal := []variant{{loop: func(msg, buf []byte) (func(int), error) {
		return func(n int) {
			for range n {
				a.Seal(buf[:0], nonce, msg, ad)
			}
		}, nil
	}}}
	open := []variant{{loop: func(msg, buf []byte) (func(int), error) {
		ct := a.Seal(nil, nonce, msg, ad)
		if _, err := a.Open(buf[:0], nonce, ct, ad); err != nil {
			return nil, fmt.Errorf("bench: %s does not open what it sealed: %v", name, err)
		}
		return func(n int) {
			for range n {
				a.Open(buf[:0], nonce, ct, ad)
			}
		}, nil
	}}}
	b, _ := a.(batch.AEAD)
	if r.cfg.Batch > 0 && b == nil && s.registry {
		r.note("%s: no batch API (Info.Batch is false), so no figures with --batch", name)
	}
	var msgs []batch.Message
	if r.cfg.Batch > 0 && b != nil {
		var bs, bo variant
		msgs, bs, bo = batchVariants(name, b, r.cfg.Batch, ad)
		seal, open = append(seal, bs), append(open, bo)
	}
	if err := r.measureOps(s, name, "seal", seal...); err != nil {
		return err
	}
	if err := r.measureOps(s, name, "open", open...); err != nil || msgs == nil {
		return err
	}
	return r.measureMixed(s, name, b, msgs, ad)
}

// A variant is one way to run an operation at a length: on single
// messages (batch 0) or on batches of that many messages per call. loop
// returns the loop to time for a message (for a batch, the batch's
// messages one after another) and a buffer with room for the output and a
// tag (each message's), so that the loop allocates nothing.
type variant struct {
	batch int
	loop  func(msg, buf []byte) (func(int), error)
}

// batchVariants returns the variants that measure SealBatch and OpenBatch
// on batches of k messages, with counter nonces (counterNonces) and the
// run's associated data, and the batch's messages, which they fill.
func batchVariants(name string, a batch.AEAD, k int, ad []byte) (msgs []batch.Message, seal, open variant) {
	ov := a.Overhead()
	msgs = make([]batch.Message, k)
	nonces := counterNonces(k, a.NonceSize())
	// split makes the batch of messages of n bytes in in and outputs of
	// out bytes in buf.
	split := func(in, buf []byte, n, out int) {
		for i := range msgs {
			msgs[i] = batch.Message{Nonce: nonces[i], AD: ad, In: in[i*n : (i+1)*n], Out: buf[i*out : (i+1)*out]}
		}
	}
	seal = variant{k, func(msg, buf []byte) (func(int), error) {
		n := len(msg) / k
		split(msg, buf, n, n+ov)
		return func(c int) {
			for range c {
				a.SealBatch(msgs)
			}
		}, nil
	}}
	open = variant{k, func(msg, buf []byte) (func(int), error) {
		n := len(msg) / k
		split(msg, buf, n, n+ov)
		a.SealBatch(msgs)
		ct := slices.Clone(buf[:k*(n+ov)])
		split(ct, buf, n+ov, n)
		if !a.OpenBatch(msgs) {
			return nil, fmt.Errorf("bench: %s does not open the batch it sealed", name)
		}
		return func(c int) {
			for range c {
				a.OpenBatch(msgs)
			}
		}, nil
	}}
	return msgs, seal, open
}

// counterNonces returns k nonces of size bytes in one buffer, as a
// protocol's counter makes them: nonce i holds i big-endian in its last
// bytes, the rest zero (nonce 0 is the single calls' fixed nonce). A batch
// under one key needs its nonces distinct, and a counter's are the common
// case: OCB3's kernels encipher one Ktop for a group whose nonces differ in
// their last 6 bits only (RFC 7253 §4.2), as a counter's do within 64.
func counterNonces(k, size int) [][]byte {
	buf := make([]byte, k*size)
	nonces := make([][]byte, k)
	for i := range nonces {
		n := buf[i*size : (i+1)*size : (i+1)*size]
		for j, c := len(n)-1, i; j >= 0 && c > 0; j, c = j-1, c>>8 {
			n[j] = byte(c)
		}
		nonces[i] = n
	}
	return nonces
}

// measureMixed measures Seal on each message and SealBatch on one batch of
// the IPI's lengths (ipiMix), in the messages' room msgs, in turns, for
// the summary's ipi_mixed and ipi_mixed_batch.
func (r *runner) measureMixed(s subject, name string, a batch.AEAD, msgs []batch.Message, ad []byte) error {
	lengths := ipiMix(len(msgs))
	total := 0
	for _, n := range lengths {
		total += n
	}
	in, out := make([]byte, total), make([]byte, total+len(msgs)*a.Overhead())
	for i, n := range lengths {
		msgs[i] = batch.Message{Nonce: msgs[i].Nonce, AD: ad, In: in[:n], Out: out[:n+a.Overhead()]}
		in, out = in[n:], out[n+a.Overhead():]
	}
	loops := []func(int){
		func(c int) {
			for range c {
				for j := range msgs {
					m := &msgs[j]
					a.Seal(m.Out[:0], m.Nonce, m.In, m.AD)
				}
			}
		},
		func(c int) {
			for range c {
				a.SealBatch(msgs)
			}
		},
	}
	r.step(2*r.slot(), fmt.Sprintf("%s: seal %d messages of the IPI's lengths, one at a time and in a batch", name, len(msgs)))
	m := measureTurns(loops, r.slice, r.trials, []bool{allocsPerOp(loops[0]) > 0, allocsPerOp(loops[1]) > 0})
	k := rowKey{s.alg, s.impl}
	ex := r.extras[k]
	for i := range m {
		ex.ipiMixed[i] = ptr(round(cyclesPerByte(m[i].ns, r.clock.GHz, total)))
	}
	r.extras[k] = ex
	return nil
}

// slot is the expected time of one measurement: its trials and the warm-up
// that finds the iteration count.
func (r *runner) slot() time.Duration { return time.Duration(r.trials+1) * r.slice }

// measureOps measures one operation at every length, in each of its
// variants (single messages, batches), their trials in turns.
func (r *runner) measureOps(s subject, name, op string, vs ...variant) error {
	maxLen := r.sizes[len(r.sizes)-1]
	k := 1
	for _, v := range vs {
		k = max(k, v.batch)
	}
	msg := make([]byte, k*maxLen)
	buf := make([]byte, k*(maxLen+tagRoom))
	what := op
	if k > 1 {
		what = fmt.Sprintf("%s, one at a time and in batches of %d,", op, k)
	}
	loops := make([]func(int), len(vs))
	collect := make([]bool, len(vs))
	for _, n := range r.sizes {
		r.step(time.Duration(len(vs))*r.slot(), fmt.Sprintf("%s: %s %d bytes", name, what, n))
		for i, v := range vs {
			b := max(v.batch, 1)
			f, err := v.loop(msg[:b*n], buf[:b*(n+tagRoom)])
			if err != nil {
				return err
			}
			allocs := allocsPerOp(f)
			if row := (rowKey{s.alg, s.impl}); allocs > 0 && !r.allocates[row] {
				r.allocates[row] = true
				r.note("%s allocates (%.3g times in a %s of %d bytes), so the garbage collector runs before each of its trials", name, allocs, op, n)
			}
			loops[i], collect[i] = f, allocs > 0
		}
		for i, m := range measureTurns(loops, r.slice, r.trials, collect) {
			b := max(vs[i].batch, 1)
			r.results = append(r.results, Result{
				Alg: s.alg, Impl: s.impl, Op: op, Bytes: n, Batch: vs[i].batch,
				CPB:    round(cyclesPerByte(m.ns, r.clock.GHz, b*n)),
				GHz:    round(r.clock.GHz),
				GBps:   round(gigabytesPerSecond(m.ns, b*n)),
				Spread: ptr(round(m.spread)),
			})
		}
	}
	return nil
}

// tagRoom is the room for a tag after the output: the longest tag of any
// registered algorithm.
const tagRoom = 32

// allocsPerOp returns the heap allocations of one call of f(1), averaged
// over a few, as testing.AllocsPerRun does.
func allocsPerOp(f func(int)) float64 {
	const runs = 16
	f(1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f(runs)
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / runs
}

// runOpenSSL runs openssl speed for every OpenSSL cipher and length.
func (r *runner) runOpenSSL() {
	if r.openssl == "" {
		return
	}
	for _, c := range r.plan.openssl {
		r.calibrate()
		for _, n := range r.osSizes {
			r.step(opensslTime, fmt.Sprintf("%s (openssl): %d bytes", c.alg, n))
			ns, err := runOpenSSL(r.openssl, c, n)
			if err != nil {
				r.note("openssl: %s skipped: %v", c.name, err)
				break
			}
			r.results = append(r.results, Result{
				Alg: c.alg, Impl: implOpenSSL, Op: "seal", Bytes: n,
				CPB:  round(cyclesPerByte(ns, r.clock.GHz, n)),
				GHz:  round(r.clock.GHz),
				GBps: round(gigabytesPerSecond(ns, n)),
			})
		}
	}
}

// cpuName returns the processor's model name from /proc/cpuinfo (only the
// name: the clock rate it shows is no use, see calibrate), or GOARCH.
func cpuName() string {
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
