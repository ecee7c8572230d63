def running(pid):
    return True
