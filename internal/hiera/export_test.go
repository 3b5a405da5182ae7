package hiera

import "time"

// SetClock replaces the engine's clock, so that tests can move past StampCheckInterval without
// sleeping.
func SetClock(e *Engine, now func() time.Time) { e.now = now }
