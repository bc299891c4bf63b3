# what: loop that catches Exception to survive the timer
# expect: contain
# status: timeout
# reason: CPU time limit
def attack(state, path=None, envvar=None):
    while True:
        try:
            while True:
                pass
        except Exception:
            pass
