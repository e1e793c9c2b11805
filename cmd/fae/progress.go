package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressDelay is how long a job runs before its progress bar shows.
const progressDelay = time.Second

// A progress is an input that shows a progress bar with the rate and the
// time left on standard error, if that is a terminal, from progressDelay
// after start.
type progress struct {
	r    io.Reader
	size int64 // -1 if unknown
	n    int64 // bytes read
	verb string
	bar  *progressbar.ProgressBar
}

func newProgress(r io.Reader, size int64, verb string) *progress {
	return &progress{r: r, size: size, verb: verb}
}

func (p *progress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.bar != nil {
		p.bar.Set64(p.n)
	}
	return n, err
}

// start starts the clock, once the key is derived, so that the rate is
// right; the bar is drawn only once progressDelay has passed.
func (p *progress) start() {
	if !isTerminal(os.Stderr) {
		return
	}
	p.bar = progressbar.NewOptions64(p.size,
		progressbar.OptionSetWriter(&delayedWriter{os.Stderr, time.Now().Add(progressDelay)}),
		progressbar.OptionSetDescription(p.verb),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond))
	p.bar.Set64(p.n)
}

// done clears the bar.
func (p *progress) done() {
	if p.bar != nil {
		p.bar.Clear()
	}
}

// A delayedWriter drops what is written to it before the time from.
type delayedWriter struct {
	w    io.Writer
	from time.Time
}

func (d *delayedWriter) Write(b []byte) (int, error) {
	if time.Now().Before(d.from) {
		return len(b), nil
	}
	return d.w.Write(b)
}
