module example.com/probes

go 1.26.0
