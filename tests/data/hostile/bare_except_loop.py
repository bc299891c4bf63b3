# what: bare except could swallow the CPU timer
# expect: refuse
# reason: bare 'except:' is not allowed
def attack(state, path=None, envvar=None):
    while True:
        try:
            pass
        except:
            pass
