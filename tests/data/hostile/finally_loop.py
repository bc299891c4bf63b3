# what: loop again in a finally block after the timer fires
# expect: contain
# status: timeout
# reason: CPU time limit
def attack(state, path=None, envvar=None):
    try:
        while True:
            pass
    finally:
        while True:
            pass
