# what: a global counter shared by every episode
# expect: refuse
# reason: global statements are not allowed
COUNTER = 0


def attack(state, path=None, envvar=None):
    global COUNTER
    COUNTER = COUNTER + 1
    return COUNTER
