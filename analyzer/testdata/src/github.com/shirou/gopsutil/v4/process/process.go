// Package process is the part of gopsutil's API the tests use.
package process

func PidExists(pid int32) (bool, error) { return false, nil }
