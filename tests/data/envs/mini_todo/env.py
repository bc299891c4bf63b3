"""mini_todo: a hand-written environment in the restricted style (test fixture)."""


def todo_number(todo_id):
    return int(todo_id[1:]) if todo_id[1:].isdigit() else 0


def find_todo(state, todo_id):
    todo = state["todos"].get(todo_id)
    if todo is None:
        raise ToolError("todo " + repr(todo_id) + " not found")
    return todo


def list_todos(state, complete=None):
    todos = [t for t in state["todos"].values() if complete is None or t["complete"] == complete]
    return sorted(todos, key=lambda t: todo_number(t["id"]))


def get_todo(state, todo_id):
    return find_todo(state, todo_id)


def create_todo(state, title):
    if not title.strip():
        raise ToolError("title must not be empty")
    todo_id = "t" + str(state["next_id"])
    todo = {"id": todo_id, "title": title, "complete": False}
    state["todos"][todo_id] = todo
    state["next_id"] += 1
    return todo


def update_todo(state, todo_id, title=None, complete=None):
    if title is None and complete is None:
        raise ToolError("nothing to update: give title or complete")
    todo = find_todo(state, todo_id)
    if title is not None:
        if not title.strip():
            raise ToolError("title must not be empty")
        todo["title"] = title
    if complete is not None:
        todo["complete"] = complete
    return todo


def delete_todo(state, todo_id):
    find_todo(state, todo_id)
    del state["todos"][todo_id]
    return {"deleted": todo_id}
