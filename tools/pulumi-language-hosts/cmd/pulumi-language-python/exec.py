# Runs a Pulumi Python program inside the SDK's stack, as the official host's pulumi-language-python-exec does (which
# neither the Go module proxy nor the `pulumi` wheel ships). The host (main.go) starts it with the virtual environment's
# python, the program's path as the only argument and the engine's settings in PULUMI_* variables.
import asyncio
import json
import os
import runpy
import sys
import traceback

import pulumi
import pulumi.runtime
from pulumi.errors import RunError
from pulumi.runtime.settings import Settings, configure
from pulumi.runtime.stack import run_in_stack

# The exit code after the error has been reported through the engine: the engine then prints no second, generic one.
EXITED_AFTER_REPORTING = 32


def main(program: str) -> int:
    env = os.environ
    configure(
        Settings(
            project=env.get("PULUMI_PROJECT"),
            stack=env.get("PULUMI_STACK"),
            monitor=env.get("PULUMI_MONITOR"),
            engine=env.get("PULUMI_ENGINE"),
            parallel=int(env.get("PULUMI_PARALLEL") or "0") or None,
            dry_run=env.get("PULUMI_DRY_RUN") == "true",
            organization=env.get("PULUMI_ORGANIZATION") or None,
            root_directory=env.get("PULUMI_ROOT_DIRECTORY") or None,
        )
    )
    pulumi.runtime.set_all_config(
        json.loads(env.get("PULUMI_CONFIG") or "{}"), json.loads(env.get("PULUMI_CONFIG_SECRET_KEYS") or "[]")
    )
    path = program if os.path.isfile(program) else os.path.join(program, "__main__.py")
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(run_in_stack(lambda: runpy.run_path(path, run_name="__main__")))
        return 0
    except RunError as error:
        pulumi.log.error(str(error))
        return EXITED_AFTER_REPORTING
    except Exception:  # noqa: BLE001 - every failure of the program is reported through the engine
        pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
        return EXITED_AFTER_REPORTING
    finally:
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
