package provider

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var creation, exit, kernel, user syscall.Filetime
	self, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0
	}
	if err := syscall.GetProcessTimes(self, &creation, &exit, &kernel, &user); err != nil {
		return 0
	}
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) } // of 100 ns
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}

// maxRSS is not measured on Windows.
func maxRSS() (int64, bool) { return 0, false }
