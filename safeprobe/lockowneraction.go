package safeprobe

import "os"

// ownerAction is what WithOwnerProcess has SignalOwnerWith deliver in
// place of a signal: fn, called with the verified holder.
type ownerAction struct {
	fn func(p *os.Process) error
}

func (*ownerAction) Signal() {}

func (*ownerAction) String() string { return "an action on the verified owner" }

// isOwnerAction reports whether sig is an ownerAction.
func isOwnerAction(sig os.Signal) bool {
	_, ok := sig.(*ownerAction)
	return ok
}
