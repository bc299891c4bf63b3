# what: a default list shared by every call
# expect: refuse
# reason: default value of parameter 'seen' must be a constant
def attack(state, path=None, envvar=None, seen=[]):
    seen.append(1)
    return len(seen)
