# what: string.Formatter().vformat
# expect: refuse
# reason: string.Formatter is not available in the sandbox
from string import Formatter


def attack(state, path=None, envvar=None):
    return Formatter().vformat('{0.__class__}', [state], {})
