package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/faelabs/fae"
)

const listHelp = `Prints one line per algorithm, sorted by name: NAME KEY NONCE TAG NOTE.
Sizes are in bytes; where several are allowed, the default follows in
parentheses, as in 1..15(12).
`

func list(args []string, _ io.Reader, stdout io.Writer) error {
	if len(args) > 0 {
		return usageErrorf("list takes no arguments")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, info := range fae.Algorithms() {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", info.Name, info.KeySize,
			sizes(info.NonceSizes, info.NonceSize), sizes(info.TagSizes, info.TagSize), info.Note)
	}
	return tw.Flush()
}

// sizes writes the allowed sizes compactly ("12", "16,32", "1..15",
// "4,6,..,16"), and the default after them when there is a choice.
func sizes(s []int, def int) string {
	if len(s) == 1 {
		return strconv.Itoa(s[0])
	}
	return fmt.Sprintf("%s(%d)", compact(s), def)
}

func compact(s []int) string {
	if len(s) >= 3 {
		step, even := s[1]-s[0], true
		for i := 2; i < len(s); i++ {
			even = even && s[i]-s[i-1] == step
		}
		switch {
		case even && step == 1:
			return fmt.Sprintf("%d..%d", s[0], s[len(s)-1])
		case even && len(s) > 3:
			return fmt.Sprintf("%d,%d,..,%d", s[0], s[1], s[len(s)-1])
		}
	}
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}
