# what: a set where JSON is required
# expect: contain
# status: non_json
# reason: not JSON-serializable
def attack(state, path=None, envvar=None):
    return {1, 2}
