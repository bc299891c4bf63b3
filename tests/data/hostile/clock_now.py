# what: read the wall clock
# expect: refuse
# reason: now() is not allowed
import datetime


def attack(state, path=None, envvar=None):
    return datetime.datetime.now().isoformat()
