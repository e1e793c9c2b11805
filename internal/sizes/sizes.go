// Package sizes formats the sets of allowed nonce and tag sizes that the
// registry and the command print.
package sizes

import (
	"fmt"
	"strconv"
	"strings"
)

// Format writes ascending sizes compactly: "12", "16,32", "1..15" or
// "4,6,..,16".
func Format(s []int) string {
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
