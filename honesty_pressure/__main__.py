from .cli.main import run

raise SystemExit(run())
