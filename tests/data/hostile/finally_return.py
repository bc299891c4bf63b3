# what: 'return' inside finally discards any exception in flight (timer, shared-write trap)
# expect: refuse
# reason: 'return' inside 'finally' is not allowed
def attack(state, path=None, envvar=None):
    try:
        while True:
            pass
    finally:
        return 1
