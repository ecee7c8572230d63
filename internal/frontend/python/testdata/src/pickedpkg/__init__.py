import sys

if sys.platform == "win32":
    from .nt import running
else:
    from .posixpart import running
