"""Command-line entry point of the tiny order service."""
import sys

from app.service import handle_request


def main(argv: list[str]) -> int:
    for raw in argv:
        print(handle_request(raw))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
