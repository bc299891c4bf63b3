# what: 'continue' inside finally discards the CPU-timer exception and loops forever
# expect: refuse
# reason: 'continue' inside 'finally' is not allowed
def attack(state, path=None, envvar=None):
    while True:
        try:
            while True:
                pass
        finally:
            continue
