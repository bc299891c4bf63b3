"""Support-desk scenarios for make_trajectories.py.

Each scenario takes a Session (live adapter, seeded rng) and a parameter, makes 1-5 calls with the outcome it
expects, and returns the caller's request as an instruction.
"""

from __future__ import annotations

WEEKDAYS = [
    "2026-04-15",
    "2026-04-16",
    "2026-04-17",
    "2026-04-20",
    "2026-04-21",
    "2026-04-22",
    "2026-04-23",
    "2026-04-24",
    "2026-04-27",
    "2026-04-28",
    "2026-04-29",
    "2026-04-30",
    "2026-05-01",
    "2026-05-04",
]
WEEKEND = ["2026-04-18", "2026-04-19", "2026-04-25", "2026-04-26", "2026-05-02"]


def _surname(s, account_id):
    return s.desk.state()["accounts"][account_id]["holder_name"].split()[-1]


def _meter_of(s, account_id, service):
    return next(
        m["meter_id"]
        for m in s.desk.state()["meters"].values()
        if m["account_id"] == account_id and m["service"] == service
    )


def pay_oldest_bill(s, account_id):
    """Look the caller up by name, list open bills, pay the oldest one."""
    name = _surname(s, account_id)
    s.step("find_accounts", {"name": name.lower() if s.rng.random() < 0.5 else name})
    bills = s.step("list_bills", {"account_id": account_id, "status": "open"})
    bill = bills[0]
    amount = round(bill["amount"] - bill["amount_paid"], 2)
    method = s.rng.choice(["card", "bank_transfer", "check"])
    s.step("post_payment", {"account_id": account_id, "amount": amount, "method": method})
    return (
        f"Caller {name} wants to pay their oldest open bill ({bill['period']}) by {method.replace('_', ' ')}. "
        "Find the account, check the open bills and take the payment."
    )


def pay_full_balance(s, account_id):
    """Pay the whole balance after checking the account."""
    acct = s.step("get_account", {"account_id": account_id})
    method = "card" if acct["account_type"] == "residential" else "bank_transfer"
    s.step("post_payment", {"account_id": account_id, "amount": acct["balance"], "method": method})
    return f"The holder of account {account_id} wants to pay off the entire balance by {method.replace('_', ' ')}."


def pay_part(s, account_id):
    """A partial payment of a round amount."""
    amount = float(s.rng.choice([40, 50, 75, 100, 120]))
    s.step("list_bills", {"account_id": account_id})
    s.step("post_payment", {"account_id": account_id, "amount": amount, "method": "check"})
    return (
        f"Account {account_id}: the customer mailed a check for {amount:.2f}; "
        "post it and tell them which bills it covered."
    )


def cash_over_limit(s, account_id):
    """Cash above the desk limit is refused; the caller pays by card instead."""
    acct = s.step("get_account", {"account_id": account_id})
    amount = round(min(acct["balance"], 500 + s.rng.randint(60, 300)), 2)
    s.step("post_payment", {"account_id": account_id, "amount": amount, "method": "cash"}, expect=False)
    s.step("post_payment", {"account_id": account_id, "amount": amount, "method": "card"})
    return (
        f"Walk-in customer for {account_id} wants to pay {amount:.2f} in cash; if cash is not possible "
        "they will use a card."
    )


def pay_closed(s, account_id):
    """A payment on a closed account is refused."""
    name = _surname(s, account_id)
    found = s.step("find_accounts", {"name": name})
    s.step("post_payment", {"account_id": found[0]["account_id"], "amount": 60.0, "method": "card"}, expect=False)
    return f"{name} calls to pay 60.00 by card on their old account at 402 Willow Bend."


def pay_then_cancel_disconnect(s, param):
    """A delinquent customer with a pending disconnection pays in full; the disconnect is cancelled."""
    account_id, order_id = param
    acct = s.step("get_account", {"account_id": account_id})
    s.step("post_payment", {"account_id": account_id, "amount": acct["balance"], "method": "card"})
    orders = s.step("list_service_orders", {"account_id": account_id, "status": "scheduled"})
    s.step(
        "update_service_order",
        {"order_id": orders[0]["order_id"], "status": "cancelled", "note": "balance paid in full at the desk"},
    )
    return (
        f"{acct['holder_name']} ({account_id}) got a shut-off notice and wants to pay everything by card now "
        "so the disconnection does not happen."
    )


def complete_disconnect_after_payment(s, param):
    """The crew tries to complete a disconnect after the customer paid: refused, then cancelled."""
    account_id, order_id = param
    acct = s.step("get_account", {"account_id": account_id})
    s.step("post_payment", {"account_id": account_id, "amount": acct["balance"], "method": "bank_transfer"})
    s.step("update_service_order", {"order_id": order_id, "status": "dispatched"})
    s.step("update_service_order", {"order_id": order_id, "status": "completed"}, expect=False)
    s.step("update_service_order", {"order_id": order_id, "status": "cancelled", "note": "customer paid"})
    return (
        f"A bank transfer clearing {account_id}'s full balance just arrived; post it. Dispatch had already "
        f"sent the crew for {order_id}: try to close it out, and cancel it if it cannot be completed."
    )


def plan(s, param):
    """Set up a payment plan."""
    account_id, n = param
    acct = s.step("get_account", {"account_id": account_id})
    s.step("create_payment_plan", {"account_id": account_id, "installments": n})
    return (
        f"{acct['holder_name']} cannot pay the balance of {acct['balance']:.2f} at once and asks for a "
        f"payment arrangement over {n} months."
    )


def plan_too_long(s, param):
    """Too many installments for a residential account, then the maximum."""
    account_id, n = param
    s.step("create_payment_plan", {"account_id": account_id, "installments": n}, expect=False)
    s.step("create_payment_plan", {"account_id": account_id, "installments": 6})
    return (
        f"Account {account_id} asks to spread the balance over {n} months; if that is not allowed, "
        "offer the longest plan possible."
    )


def plan_refused(s, account_id):
    """A plan that the rules refuse (active plan, low balance, wrong status)."""
    s.step("get_account", {"account_id": account_id})
    s.step("create_payment_plan", {"account_id": account_id, "installments": 3}, expect=False)
    return f"The customer on {account_id} wants a 3-month payment plan."


def disconnected_pays_and_reconnects(s, account_id):
    """A disconnected customer cannot get a plan, pays in full, then books a reconnection."""
    meter_id = _meter_of(s, account_id, "water")
    s.step("create_payment_plan", {"account_id": account_id, "installments": 4}, expect=False)
    acct = s.step("get_account", {"account_id": account_id})
    s.step("post_payment", {"account_id": account_id, "amount": acct["balance"], "method": "card"})
    day = s.rng.choice(WEEKDAYS[:6])
    s.step(
        "create_service_order",
        {"account_id": account_id, "meter_id": meter_id, "order_type": "reconnect", "scheduled_date": day},
    )
    return (
        f"{acct['holder_name']} ({account_id}) wants the water back on. They asked for a payment plan; "
        f"if not possible they will pay everything by card, then book the water reconnection for {day}."
    )


def reconnect(s, param):
    """Book a reconnection (succeeds only when the balance is paid)."""
    account_id, expect = param
    meter_id = _meter_of(s, account_id, "water")
    serial = s.desk.state()["meters"][meter_id]["serial"]
    s.step("find_accounts", {"meter_serial": serial})
    day = s.rng.choice(WEEKDAYS)
    s.step(
        "create_service_order",
        {
            "account_id": account_id,
            "meter_id": meter_id,
            "order_type": "reconnect",
            "scheduled_date": day,
            "notes": "customer will be home after 9am",
        },
        expect,
    )
    return f"A caller reads meter serial {serial} off their water meter and wants service reconnected on {day}."


def disconnect(s, param):
    """Schedule a nonpayment disconnection."""
    account_id, service, expect = param
    meter_id = _meter_of(s, account_id, service)
    s.step("list_bills", {"account_id": account_id, "status": "open"})
    day = s.rng.choice(WEEKDAYS[3:])
    s.step(
        "create_service_order",
        {"account_id": account_id, "meter_id": meter_id, "order_type": "disconnect", "scheduled_date": day},
        expect,
    )
    return (
        f"Collections asks you to schedule a {service} disconnection for nonpayment on {account_id} "
        f"for {day}, after checking the open bills."
    )


def connect_new(s, account_id):
    """Connect a new (pending) account and dispatch the crew."""
    meter_id = _meter_of(s, account_id, "water")
    s.step("get_account", {"account_id": account_id})
    order = s.step(
        "create_service_order",
        {"account_id": account_id, "meter_id": meter_id, "order_type": "connect", "scheduled_date": "2026-04-16"},
    )
    s.step("update_service_order", {"order_id": order["order_id"], "status": "dispatched"})
    return f"New customer on {account_id} needs water service connected on 2026-04-16; dispatch the crew."


def connect_duplicate(s, account_id):
    """A second connect order for a meter that already has one is refused; the crew completes the first."""
    meter_id = _meter_of(s, account_id, "electric")
    s.step(
        "create_service_order",
        {"account_id": account_id, "meter_id": meter_id, "order_type": "connect", "scheduled_date": "2026-04-15"},
        expect=False,
    )
    orders = s.step("list_service_orders", {"meter_id": meter_id})
    s.step("update_service_order", {"order_id": orders[0]["order_id"], "status": "dispatched"})
    s.step(
        "update_service_order",
        {"order_id": orders[0]["order_id"], "status": "completed", "note": "power on, meter sealed"},
    )
    return (
        f"Field crew calls: they are at {account_id} to turn the power on. Book a connect order for "
        "2026-04-15 if none exists; otherwise dispatch and complete the existing one."
    )


def close_out_order(s, param):
    """Move an existing order along (some transitions are refused)."""
    order_id, steps = param
    account_id = s.desk.state()["service_orders"][order_id]["account_id"]
    s.step("list_service_orders", {"account_id": account_id})
    for status, expect in steps:
        s.step("update_service_order", {"order_id": order_id, "status": status}, expect)
    wanted = " then ".join(st for st, _ in steps)
    return f"Dispatch asks you to set service order {order_id} to {wanted}."


def meter_test(s, param):
    """A customer disputes their usage and asks for a meter test."""
    meter_id, expect = param
    meter = s.step("get_meter", {"meter_id": meter_id})
    day = s.rng.choice(WEEKDAYS)
    s.step(
        "create_service_order",
        {
            "account_id": meter["account_id"],
            "meter_id": meter_id,
            "order_type": "meter_test",
            "scheduled_date": day,
            "notes": "customer disputes high usage",
        },
        expect,
    )
    return (
        f"The customer on account {meter['account_id']} thinks meter {meter_id} over-reads and wants it "
        f"tested on {day} (they accept the 30.00 fee)."
    )


def weekend_retry(s, param):
    """A weekend date is refused; the next Monday is booked."""
    meter_id = param
    meter = s.step("get_meter", {"meter_id": meter_id})
    bad = s.rng.choice(WEEKEND[:2])
    s.step(
        "create_service_order",
        {"account_id": meter["account_id"], "meter_id": meter_id, "order_type": "meter_test", "scheduled_date": bad},
        expect=False,
    )
    s.step(
        "create_service_order",
        {
            "account_id": meter["account_id"],
            "meter_id": meter_id,
            "order_type": "meter_test",
            "scheduled_date": "2026-04-20",
        },
    )
    return (
        f"Customer wants meter {meter_id} tested on {bad}; if crews are not available that day, book the Monday after."
    )


def wrong_meter(s, param):
    """A meter that belongs to another account is refused; the right one is looked up."""
    account_id, other_meter = param
    s.step(
        "create_service_order",
        {"account_id": account_id, "meter_id": other_meter, "order_type": "meter_test", "scheduled_date": "2026-04-21"},
        expect=False,
    )
    meter_id = _meter_of(s, account_id, "electric")
    s.step("get_meter", {"meter_id": meter_id})
    s.step(
        "create_service_order",
        {"account_id": account_id, "meter_id": meter_id, "order_type": "meter_test", "scheduled_date": "2026-04-21"},
    )
    return (
        f"Book a meter test for 2026-04-21 on account {account_id}; the caller gave meter {other_meter}, "
        "but if that is not theirs use their electric meter."
    )


def reading(s, meter_id):
    """Quote the estimate for a phoned-in reading, then record it."""
    meter = s.step("get_meter", {"meter_id": meter_id})
    high = 12 if meter["service"] == "water" else 700
    if meter["tariff_id"].endswith("COM"):
        high *= 6
    value = meter["last_reading"] + s.rng.randint(high // 3, high)
    s.step("estimate_bill", {"meter_id": meter_id, "reading": value})
    s.step("submit_meter_reading", {"meter_id": meter_id, "reading": value, "source": "customer"})
    return f"Customer reads {value} on meter {meter_id}; record it and tell them roughly what the bill will be."


def reading_mistyped(s, meter_id):
    """A reading below the last one is refused; the corrected one is recorded."""
    meter = s.step("get_meter", {"meter_id": meter_id})
    bad = meter["last_reading"] - s.rng.randint(3, 40)
    s.step("submit_meter_reading", {"meter_id": meter_id, "reading": bad}, expect=False)
    good = meter["last_reading"] + s.rng.randint(4, 30)
    s.step("submit_meter_reading", {"meter_id": meter_id, "reading": good})
    return f"Caller gives reading {bad} for meter {meter_id}, then corrects it to {good} when told it is too low."


def reading_refused(s, param):
    """A reading that cannot be taken (meter off, or already read today); an estimate is given instead."""
    meter_id = param
    meter = s.step("get_meter", {"meter_id": meter_id})
    value = meter["last_reading"] + (9 if meter["service"] == "water" else 450)
    s.step("submit_meter_reading", {"meter_id": meter_id, "reading": value, "source": "customer"}, expect=False)
    s.step("estimate_bill", {"meter_id": meter_id, "reading": value})
    return (
        f"Customer wants to submit reading {value} for meter {meter_id}; "
        "if it cannot be recorded, just quote the estimate."
    )


def estimate_by_serial(s, meter_id):
    """Find the account from a serial number and quote an estimate."""
    meter = s.desk.state()["meters"][meter_id]
    s.step("find_accounts", {"meter_serial": meter["serial"]})
    usage = s.rng.randint(5, 25) if meter["service"] == "water" else s.rng.randint(300, 1400)
    if meter["tariff_id"].endswith("COM"):
        usage *= 5
    s.step("estimate_bill", {"meter_id": meter_id, "reading": meter["last_reading"] + usage})
    return (
        f"A caller with meter serial {meter['serial']} asks what a bill would be if the meter reads "
        f"{meter['last_reading'] + usage}."
    )


def add_contact(s, param):
    """Add an authorized contact."""
    account_id, name, rel = param
    s.step("get_account", {"account_id": account_id})
    s.step("update_authorized_contacts", {"account_id": account_id, "action": "add", "name": name, "relationship": rel})
    return f"The holder of {account_id} wants {name} ({rel.replace('_', ' ')}) allowed to discuss the account."


def swap_contact(s, param):
    """Adding to a full list fails; one contact is removed and the new one added."""
    account_id, old, new, rel = param
    s.step(
        "update_authorized_contacts",
        {"account_id": account_id, "action": "add", "name": new, "relationship": rel},
        expect=False,
    )
    s.step("update_authorized_contacts", {"account_id": account_id, "action": "remove", "name": old})
    s.step("update_authorized_contacts", {"account_id": account_id, "action": "add", "name": new, "relationship": rel})
    return f"Account {account_id}: add {new} as {rel.replace('_', ' ')}; if the list is full, remove {old} first."


def remove_contact(s, param):
    """Remove a contact; a name that is not listed is refused."""
    account_id, name, expect = param
    s.step("get_account", {"account_id": account_id})
    s.step("update_authorized_contacts", {"account_id": account_id, "action": "remove", "name": name}, expect)
    return f"The holder of {account_id} asks to remove {name} from the people allowed on the account."


def duplicate_contact(s, param):
    """Adding a contact already listed (different case) is refused."""
    account_id, name, rel = param
    s.step(
        "update_authorized_contacts",
        {"account_id": account_id, "action": "add", "name": name, "relationship": rel},
        expect=False,
    )
    return f"Add {name} as an authorized contact ({rel}) on {account_id}."


def city_review(s, param):
    """Review delinquent accounts in a city and set up a plan for the largest balance."""
    city, n = param
    found = s.step("find_accounts", {"city": city, "status": "delinquent"})
    top = max(found, key=lambda a: a["balance"])
    s.step("list_bills", {"account_id": top["account_id"], "status": "open"})
    s.step("create_payment_plan", {"account_id": top["account_id"], "installments": n})
    return (
        f"The owner of the delinquent account with the largest balance in {city} called back agreeing to a "
        f"{n}-installment payment plan. Find it, review the open bills, and set up the plan."
    )


def high_balance_lookup(s, param):
    """Find accounts over a balance and check one's history."""
    min_balance, status = param
    args = {"min_balance": min_balance}
    if status:
        args["status"] = status
    found = s.step("find_accounts", args)
    if found:
        s.step("get_account", {"account_id": found[0]["account_id"]})
    return f"List the {status or 'all'} accounts owing at least {min_balance:.2f} and open the first one."


def unknown_account(s, param):
    """A mistyped account id, then the right one by name."""
    bad, account_id = param
    s.step("get_account", {"account_id": bad}, expect=False)
    name = _surname(s, account_id)
    found = s.step("find_accounts", {"name": name})
    s.step("list_bills", {"account_id": found[0]["account_id"], "status": "partial"})
    return f"A caller gives account number {bad} and the name {name}; find the account and any partly paid bills."


SCENARIOS = [
    (pay_oldest_bill, "AC-10214"),
    (pay_oldest_bill, "AC-10237"),
    (pay_oldest_bill, "AC-10268"),
    (pay_oldest_bill, "AC-10318"),
    (pay_oldest_bill, "AC-10326"),
    (pay_oldest_bill, "AC-10352"),
    (pay_full_balance, "AC-10214"),
    (pay_full_balance, "AC-10237"),
    (pay_full_balance, "AC-10365"),
    (pay_full_balance, "AC-10295"),
    (pay_full_balance, "AC-10326"),
    (pay_part, "AC-10237"),
    (pay_part, "AC-10289"),
    (pay_part, "AC-10365"),
    (pay_part, "AC-10251"),
    (cash_over_limit, "AC-10268"),
    (cash_over_limit, "AC-10326"),
    (pay_closed, "AC-10331"),
    (pay_then_cancel_disconnect, ("AC-10318", "SO-7708")),
    (complete_disconnect_after_payment, ("AC-10318", "SO-7708")),
    (plan, ("AC-10237", 4)),
    (plan, ("AC-10326", 10)),
    (plan, ("AC-10214", 3)),
    (plan, ("AC-10268", 12)),
    (plan, ("AC-10365", 2)),
    (plan, ("AC-10318", 6)),
    (plan, ("AC-10352", 5)),
    (plan_too_long, ("AC-10237", 9)),
    (plan_too_long, ("AC-10214", 12)),
    (plan_refused, "AC-10295"),
    (plan_refused, "AC-10251"),
    (plan_refused, "AC-10302"),
    (disconnected_pays_and_reconnects, "AC-10289"),
    (reconnect, ("AC-10273", True)),
    (reconnect, ("AC-10289", False)),
    (disconnect, ("AC-10237", "water", True)),
    (disconnect, ("AC-10326", "electric", True)),
    (disconnect, ("AC-10318", "water", False)),
    (disconnect, ("AC-10214", "electric", False)),
    (connect_new, "AC-10347"),
    (connect_duplicate, "AC-10302"),
    (close_out_order, ("SO-7709", [("completed", True)])),
    (close_out_order, ("SO-7710", [("completed", False), ("dispatched", True)])),
    (close_out_order, ("SO-7710", [("cancelled", True)])),
    (close_out_order, ("SO-7701", [("cancelled", False)])),
    (meter_test, ("MTR-40124", True)),
    (meter_test, ("MTR-40145", True)),
    (meter_test, ("MTR-40257", True)),
    (meter_test, ("MTR-40250", False)),
    (meter_test, ("MTR-40166", False)),
    (weekend_retry, "MTR-40187"),
    (wrong_meter, ("AC-10214", "MTR-40138")),
    (reading, "MTR-40117"),
    (reading, "MTR-40124"),
    (reading, "MTR-40138"),
    (reading, "MTR-40152"),
    (reading, "MTR-40222"),
    (reading, "MTR-40243"),
    (reading_mistyped, "MTR-40194"),
    (reading_mistyped, "MTR-40208"),
    (reading_refused, "MTR-40159"),
    (reading_refused, "MTR-40173"),
    (estimate_by_serial, "MTR-40145"),
    (estimate_by_serial, "MTR-40215"),
    (estimate_by_serial, "MTR-40257"),
    (add_contact, ("AC-10237", "Carol Whitfield", "spouse")),
    (add_contact, ("AC-10251", "Devi Raman", "family")),
    (add_contact, ("AC-10326", "Marcus Lee", "property_manager")),
    (swap_contact, ("AC-10352", "Brightkey Rentals", "Harbor Lane Property Mgmt", "property_manager")),
    (remove_contact, ("AC-10289", "ada lindqvist", True)),
    (remove_contact, ("AC-10214", "Rosa Ortega", False)),
    (duplicate_contact, ("AC-10318", "tunde adeyemi", "spouse")),
    (city_review, ("Cedar Falls", 8)),
    (city_review, ("Fairhaven", 5)),
    (high_balance_lookup, (300.0, "delinquent")),
    (high_balance_lookup, (150.0, None)),
    (unknown_account, ("AC-10999", "AC-10295")),
]
