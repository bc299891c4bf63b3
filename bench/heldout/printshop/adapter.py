"""Copperline Press order desk: the real system behind tools.json.

Written for forgegym. MIT License. Standard library only; deterministic (the desk's business
date is fixed below and nothing reads the clock).

    make() -> Desk with reset(state), call(name, arguments), state()

`python adapter.py` replays every trajectory in trajectories.jsonl from data.json and prints
the number of calls and refused calls.
"""

import copy
import datetime as _dt
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = _dt.date(2025, 9, 18)
STANDARD_TURNAROUND_DAYS = 7
RUSH_TURNAROUND_DAYS = 2
DOUBLE_SIDED_FACTOR = Decimal("1.6")
RUSH_RATE = Decimal("0.35")
RUSH_MINIMUM = Decimal("15.00")
RUSH_MAX_SHEETS = 2500
WALK_IN_MAX_ORDER = Decimal("600.00")
APPROVED_CANCEL_RATE = Decimal("0.15")
APPROVED_CANCEL_MINIMUM = Decimal("10.00")
PRINTING_CANCEL_RATE = Decimal("0.60")
MAX_LINE_QUANTITY = 20000

ORDER_STATUSES = ("quoted", "proof_sent", "approved", "printing", "ready", "collected", "cancelled")
EDITABLE = ("quoted", "proof_sent")
FINISHES = ("gloss", "silk", "matte", "uncoated", "textured")
SIZES = ("A6", "A5", "A4", "A3", "SRA3", "DL")
CATEGORIES = ("paper", "card", "label", "specialty")
PAYMENT_METHODS = ("account", "card", "cash")
DECISIONS = ("approve", "request_changes")


class ToolError(Exception):
    pass


def _d(x):
    return Decimal(str(x))


def _q(x):
    return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _money(x):
    return float(_q(x))


# ---------------------------------------------------------------- argument checks


def _check_keys(args, allowed):
    for k in args:
        if k not in allowed:
            raise ToolError("unexpected parameter '%s'" % k)


def _req_str(args, key):
    if key not in args or args[key] is None:
        raise ToolError("missing required parameter '%s'" % key)
    v = args[key]
    if not isinstance(v, str) or not v.strip():
        raise ToolError("parameter '%s' must be a non-empty string" % key)
    return v.strip()


def _opt_str(args, key):
    v = args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ToolError("parameter '%s' must be a non-empty string" % key)
    return v.strip()


def _int(v, key):
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        raise ToolError("parameter '%s' must be an integer" % key)
    return v


def _req_int(args, key):
    if key not in args or args[key] is None:
        raise ToolError("missing required parameter '%s'" % key)
    return _int(args[key], key)


def _opt_int(args, key, default=None):
    v = args.get(key)
    if v is None:
        return default
    return _int(v, key)


def _opt_bool(args, key, default=None):
    v = args.get(key)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise ToolError("parameter '%s' must be true or false" % key)
    return v


def _enum(value, key, allowed):
    if value is not None and value not in allowed:
        raise ToolError("parameter '%s' must be one of: %s" % (key, ", ".join(allowed)))
    return value


class Desk:
    def __init__(self):
        self.db = {"customers": {}, "products": {}, "finishing_options": {}, "orders": {}}

    # ------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + name, None) if isinstance(name, str) else None
        if fn is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        snapshot = copy.deepcopy(self.db)
        try:
            out = fn(arguments)
        except ToolError as e:
            self.db = snapshot
            return {"ok": False, "output": "Error: %s" % e}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ------------------------------------------------------------ lookups
    def _customer(self, cid):
        c = self.db["customers"].get(cid)
        if c is None:
            raise ToolError("customer %s not found" % cid)
        return c

    def _product(self, pid):
        p = self.db["products"].get(pid)
        if p is None:
            raise ToolError("product %s not found" % pid)
        return p

    def _order(self, oid):
        o = self.db["orders"].get(oid)
        if o is None:
            raise ToolError("order %s not found" % oid)
        return o

    def _log(self, order, event, note):
        order["history"].append({"date": BUSINESS_DATE.isoformat(), "event": event, "note": note})

    # ------------------------------------------------------------ pricing
    def _parse_line(self, item, where):
        """Validate one requested line item; returns (product, quantity, sides, finishing)."""
        if not isinstance(item, dict):
            raise ToolError("%s must be an object" % where)
        for k in item:
            if k not in ("product_id", "quantity", "sides", "finishing"):
                raise ToolError("unexpected field '%s' in %s" % (k, where))
        if item.get("product_id") is None:
            raise ToolError("%s: missing 'product_id'" % where)
        if not isinstance(item["product_id"], str):
            raise ToolError("%s: 'product_id' must be a string" % where)
        if item.get("quantity") is None:
            raise ToolError("%s: missing 'quantity'" % where)
        qty = _int(item["quantity"], "quantity")
        sides = _int(item.get("sides", 1) if item.get("sides") is not None else 1, "sides")
        finishing = item.get("finishing")
        if finishing is None:
            finishing = "none"
        if not isinstance(finishing, str):
            raise ToolError("%s: 'finishing' must be a string" % where)
        product = self._product(item["product_id"].strip())
        self._check_line(product, qty, sides, finishing)
        return product, qty, sides, finishing

    def _check_line(self, product, qty, sides, finishing):
        if not product["active"]:
            raise ToolError(
                "product %s (%s) is discontinued and cannot be ordered" % (product["product_id"], product["name"])
            )
        if qty < 1:
            raise ToolError("quantity must be at least 1 sheet")
        if qty > MAX_LINE_QUANTITY:
            raise ToolError("a single line is limited to %d sheets" % MAX_LINE_QUANTITY)
        if sides not in (1, 2):
            raise ToolError("sides must be 1 or 2")
        if sides == 2 and not product["double_sided"]:
            raise ToolError(
                "product %s (%s) can only be printed single-sided" % (product["product_id"], product["name"])
            )
        if finishing != "none":
            fin = self.db["finishing_options"].get(finishing)
            if fin is None:
                codes = ["none"] + sorted(self.db["finishing_options"])
                raise ToolError("unknown finishing '%s' (use one of: %s)" % (finishing, ", ".join(codes)))
            if fin["compatible_finishes"] is not None and product["finish"] not in fin["compatible_finishes"]:
                raise ToolError(
                    "%s is not available on %s stock (%s); allowed finishes: %s"
                    % (finishing, product["finish"], product["product_id"], ", ".join(fin["compatible_finishes"]))
                )
            if fin["min_gsm"] is not None and product["weight_gsm"] < fin["min_gsm"]:
                raise ToolError(
                    "%s needs stock of at least %d gsm (%s is %d gsm)"
                    % (finishing, fin["min_gsm"], product["product_id"], product["weight_gsm"])
                )
            if fin["max_gsm"] is not None and product["weight_gsm"] > fin["max_gsm"]:
                raise ToolError(
                    "%s is limited to stock of %d gsm or lighter (%s is %d gsm)"
                    % (finishing, fin["max_gsm"], product["product_id"], product["weight_gsm"])
                )

    def _price_line(self, product, qty, sides, finishing):
        tier = None
        for t in sorted(product["price_tiers"], key=lambda t: t["min_qty"]):
            if qty >= t["min_qty"]:
                tier = t
        unit = _d(tier["price_per_sheet"])
        factor = DOUBLE_SIDED_FACTOR if sides == 2 else Decimal("1")
        print_cost = _q(unit * qty * factor)
        fin_cost = Decimal("0")
        if finishing != "none":
            fin = self.db["finishing_options"][finishing]
            fin_cost = _q(_d(fin["price_per_sheet"]) * qty + _d(fin["setup_fee"]))
        return {
            "product_id": product["product_id"],
            "description": product["name"],
            "quantity": qty,
            "sides": sides,
            "finishing": finishing,
            "unit_price": _money(unit),
            "print_cost": _money(print_cost),
            "finishing_cost": _money(fin_cost),
            "line_total": _money(print_cost + fin_cost),
        }

    def _totals(self, lines, rush, discount_pct):
        subtotal = sum((_d(ln["line_total"]) for ln in lines), Decimal("0"))
        surcharge = Decimal("0")
        if rush:
            surcharge = max(_q(subtotal * RUSH_RATE), RUSH_MINIMUM)
        discount = _q(subtotal * _d(discount_pct) / Decimal("100"))
        total = subtotal + surcharge - discount
        return {
            "subtotal": _money(subtotal),
            "rush_surcharge": _money(surcharge),
            "trade_discount_pct": discount_pct,
            "trade_discount": _money(discount),
            "total": _money(total),
        }

    @staticmethod
    def _discount_pct(customer):
        if customer is not None and customer["account_type"] == "trade":
            return customer["trade_discount_pct"]
        return 0

    @staticmethod
    def _sheets_by_product(lines):
        need = {}
        for ln in lines:
            need[ln["product_id"]] = need.get(ln["product_id"], 0) + ln["quantity"]
        return need

    def _check_rush(self, lines, rush):
        if rush:
            sheets = sum(ln["quantity"] for ln in lines)
            if sheets > RUSH_MAX_SHEETS:
                raise ToolError(
                    "rush jobs are limited to %d sheets in total (this job has %d)" % (RUSH_MAX_SHEETS, sheets)
                )

    def _check_stock(self, lines, action):
        need = self._sheets_by_product(lines)
        for pid in sorted(need):
            p = self.db["products"][pid]
            if need[pid] > p["stock_sheets"]:
                raise ToolError(
                    "not enough stock to %s: %s (%s) needs %d sheets, %d on hand"
                    % (action, pid, p["name"], need[pid], p["stock_sheets"])
                )

    def _check_customer_can_order(self, customer, total):
        cid = customer["customer_id"]
        if customer["status"] != "active":
            raise ToolError("customer %s is on hold; new work cannot be taken on" % cid)
        if customer["account_type"] == "trade":
            exposure = _d(customer["balance_owed"]) + _d(total)
            if exposure > _d(customer["credit_limit"]):
                raise ToolError(
                    "credit limit exceeded for %s: balance owed %.2f + order total %.2f = %.2f, limit %.2f"
                    % (cid, customer["balance_owed"], total, float(exposure), customer["credit_limit"])
                )
        else:
            if _d(customer["balance_owed"]) > 0:
                raise ToolError(
                    "walk-in customer %s has an outstanding balance of %.2f that must be settled first"
                    % (cid, customer["balance_owed"])
                )
            if _d(total) > WALK_IN_MAX_ORDER:
                raise ToolError(
                    "walk-in orders are limited to %.2f (this order totals %.2f); a trade account is needed"
                    % (float(WALK_IN_MAX_ORDER), total)
                )

    def _reprice(self, order, customer):
        order["pricing"] = self._totals(order["line_items"], order["rush"], self._discount_pct(customer))

    # ------------------------------------------------------------ reads
    def t_get_customer(self, args):
        _check_keys(args, ("customer_id",))
        c = self._customer(_req_str(args, "customer_id"))
        out = copy.deepcopy(c)
        if c["account_type"] == "trade":
            out["available_credit"] = _money(_d(c["credit_limit"]) - _d(c["balance_owed"]))
        else:
            out["available_credit"] = None
        return out

    def t_get_product(self, args):
        _check_keys(args, ("product_id",))
        return self._product(_req_str(args, "product_id"))

    def t_get_order(self, args):
        _check_keys(args, ("order_id",))
        return self._order(_req_str(args, "order_id"))

    def t_search_products(self, args):
        _check_keys(args, ("finish", "size", "category", "in_stock", "min_stock"))
        finish = _enum(_opt_str(args, "finish"), "finish", FINISHES)
        size = _enum(_opt_str(args, "size"), "size", SIZES)
        category = _enum(_opt_str(args, "category"), "category", CATEGORIES)
        in_stock = _opt_bool(args, "in_stock")
        min_stock = _opt_int(args, "min_stock")
        if min_stock is not None and min_stock < 0:
            raise ToolError("min_stock cannot be negative")
        out = []
        for pid in sorted(self.db["products"]):
            p = self.db["products"][pid]
            if not p["active"]:
                continue
            if finish is not None and p["finish"] != finish:
                continue
            if size is not None and p["size"] != size:
                continue
            if category is not None and p["category"] != category:
                continue
            if in_stock is not None and (p["stock_sheets"] > 0) != in_stock:
                continue
            if min_stock is not None and p["stock_sheets"] < min_stock:
                continue
            first = min(p["price_tiers"], key=lambda t: t["min_qty"])
            out.append(
                {
                    "product_id": pid,
                    "name": p["name"],
                    "category": p["category"],
                    "size": p["size"],
                    "finish": p["finish"],
                    "weight_gsm": p["weight_gsm"],
                    "double_sided": p["double_sided"],
                    "base_price_per_sheet": first["price_per_sheet"],
                    "stock_sheets": p["stock_sheets"],
                }
            )
        return out

    def t_list_customer_orders(self, args):
        _check_keys(args, ("customer_id", "status"))
        cid = _req_str(args, "customer_id")
        status = _enum(_opt_str(args, "status"), "status", ORDER_STATUSES)
        self._customer(cid)
        rows = []
        for oid, o in self.db["orders"].items():
            if o["customer_id"] != cid:
                continue
            if status is not None and o["status"] != status:
                continue
            rows.append(
                {
                    "order_id": oid,
                    "job_name": o["job_name"],
                    "status": o["status"],
                    "placed_on": o["placed_on"],
                    "due_date": o["due_date"],
                    "rush": o["rush"],
                    "line_count": len(o["line_items"]),
                    "total": o["pricing"]["total"],
                }
            )
        rows.sort(key=lambda r: (r["placed_on"], r["order_id"]))
        return rows

    # ------------------------------------------------------------ quote
    def _requested_lines(self, args):
        if "line_items" not in args or args["line_items"] is None:
            raise ToolError("missing required parameter 'line_items'")
        items = args["line_items"]
        if not isinstance(items, list) or not items:
            raise ToolError("parameter 'line_items' must be a non-empty array")
        lines = []
        for i, item in enumerate(items):
            product, qty, sides, finishing = self._parse_line(item, "line_items[%d]" % i)
            lines.append(self._price_line(product, qty, sides, finishing))
        return lines

    def t_quote_job(self, args):
        _check_keys(args, ("line_items", "rush", "customer_id"))
        cid = _opt_str(args, "customer_id")
        customer = self._customer(cid) if cid is not None else None
        rush = _opt_bool(args, "rush", False)
        lines = self._requested_lines(args)
        self._check_rush(lines, rush)
        need = self._sheets_by_product(lines)
        for ln in lines:
            ln["in_stock"] = need[ln["product_id"]] <= self.db["products"][ln["product_id"]]["stock_sheets"]
        out = {"customer_id": cid, "rush": rush, "line_items": lines}
        out.update(self._totals(lines, rush, self._discount_pct(customer)))
        days = RUSH_TURNAROUND_DAYS if rush else STANDARD_TURNAROUND_DAYS
        out["due_date"] = (BUSINESS_DATE + _dt.timedelta(days=days)).isoformat()
        out["valid_until"] = (BUSINESS_DATE + _dt.timedelta(days=14)).isoformat()
        return out

    # ------------------------------------------------------------ writes
    def _next_order_id(self):
        nums = [int(k.split("-")[1]) for k in self.db["orders"]]
        return "ORD-%d" % (max(nums) + 1 if nums else 5001)

    def t_place_order(self, args):
        _check_keys(args, ("customer_id", "job_name", "line_items", "rush"))
        customer = self._customer(_req_str(args, "customer_id"))
        job_name = _req_str(args, "job_name")
        rush = _opt_bool(args, "rush", False)
        lines = self._requested_lines(args)
        self._check_rush(lines, rush)
        self._check_stock(lines, "take the order")
        pricing = self._totals(lines, rush, self._discount_pct(customer))
        self._check_customer_can_order(customer, pricing["total"])
        for i, ln in enumerate(lines):
            ln["line_id"] = "L%d" % (i + 1)
        lines = [dict([("line_id", ln.pop("line_id"))] + list(ln.items())) for ln in lines]
        oid = self._next_order_id()
        days = RUSH_TURNAROUND_DAYS if rush else STANDARD_TURNAROUND_DAYS
        order = {
            "order_id": oid,
            "customer_id": customer["customer_id"],
            "job_name": job_name,
            "status": "quoted",
            "placed_on": BUSINESS_DATE.isoformat(),
            "due_date": (BUSINESS_DATE + _dt.timedelta(days=days)).isoformat(),
            "rush": rush,
            "line_items": lines,
            "pricing": pricing,
            "proof_version": 0,
            "stock_deducted": False,
            "payment": None,
            "cancellation": None,
            "history": [],
        }
        self._log(
            order,
            "order_placed",
            "%d line(s), total %.2f%s" % (len(lines), pricing["total"], ", rush" if rush else ""),
        )
        self.db["orders"][oid] = order
        return order

    def _editable(self, order):
        if order["status"] not in EDITABLE:
            raise ToolError(
                "line items can only be changed before the proof is approved (%s is %s)"
                % (order["order_id"], order["status"])
            )

    def _withdraw_proof(self, order):
        if order["status"] == "proof_sent":
            order["status"] = "quoted"
            self._log(
                order,
                "proof_withdrawn",
                "proof v%d withdrawn after a job change; a new proof will follow" % order["proof_version"],
            )

    def t_add_line_item(self, args):
        _check_keys(args, ("order_id", "product_id", "quantity", "sides", "finishing"))
        order = self._order(_req_str(args, "order_id"))
        pid = _req_str(args, "product_id")
        qty = _req_int(args, "quantity")
        sides = _opt_int(args, "sides", 1)
        finishing = _opt_str(args, "finishing") or "none"
        self._editable(order)
        product = self._product(pid)
        self._check_line(product, qty, sides, finishing)
        line = self._price_line(product, qty, sides, finishing)
        nums = [int(ln["line_id"][1:]) for ln in order["line_items"]]
        line = dict([("line_id", "L%d" % (max(nums) + 1 if nums else 1))] + list(line.items()))
        new_lines = order["line_items"] + [line]
        self._check_rush(new_lines, order["rush"])
        self._check_stock(new_lines, "add this line")
        customer = self.db["customers"][order["customer_id"]]
        pricing = self._totals(new_lines, order["rush"], self._discount_pct(customer))
        self._check_customer_can_order(customer, pricing["total"])
        order["line_items"] = new_lines
        order["pricing"] = pricing
        self._log(
            order,
            "line_added",
            "%s: %d x %s, %d-sided, finishing %s (%.2f); new total %.2f"
            % (line["line_id"], qty, pid, sides, finishing, line["line_total"], pricing["total"]),
        )
        self._withdraw_proof(order)
        return order

    def t_remove_line_item(self, args):
        _check_keys(args, ("order_id", "line_id"))
        order = self._order(_req_str(args, "order_id"))
        line_id = _req_str(args, "line_id").upper()
        self._editable(order)
        idx = next((i for i, ln in enumerate(order["line_items"]) if ln["line_id"] == line_id), None)
        if idx is None:
            raise ToolError("order %s has no line %s" % (order["order_id"], line_id))
        if len(order["line_items"]) == 1:
            raise ToolError("%s is the only line on %s; cancel the order instead" % (line_id, order["order_id"]))
        line = order["line_items"].pop(idx)
        customer = self.db["customers"][order["customer_id"]]
        self._reprice(order, customer)
        self._log(
            order,
            "line_removed",
            "%s removed (%d x %s, %.2f); new total %.2f"
            % (line_id, line["quantity"], line["product_id"], line["line_total"], order["pricing"]["total"]),
        )
        self._withdraw_proof(order)
        return order

    def t_respond_to_proof(self, args):
        _check_keys(args, ("order_id", "decision", "comments"))
        order = self._order(_req_str(args, "order_id"))
        decision = _enum(_req_str(args, "decision"), "decision", DECISIONS)
        comments = _opt_str(args, "comments")
        if order["status"] != "proof_sent":
            raise ToolError(
                "there is no proof awaiting a response on %s (status %s)" % (order["order_id"], order["status"])
            )
        version = order["proof_version"]
        if decision == "request_changes":
            if comments is None:
                raise ToolError("comments are required when requesting changes")
            order["status"] = "quoted"
            self._log(order, "changes_requested", "proof v%d: %s" % (version, comments))
            return order
        self._check_stock(order["line_items"], "approve the proof")
        need = self._sheets_by_product(order["line_items"])
        for pid in sorted(need):
            self.db["products"][pid]["stock_sheets"] -= need[pid]
        order["stock_deducted"] = True
        order["status"] = "approved"
        note = "proof v%d approved; %d sheet(s) taken from stock" % (version, sum(need.values()))
        if comments:
            note += ": " + comments
        self._log(order, "proof_approved", note)
        return order

    def t_collect_order(self, args):
        _check_keys(args, ("order_id", "payment_method"))
        order = self._order(_req_str(args, "order_id"))
        method = _enum(_req_str(args, "payment_method"), "payment_method", PAYMENT_METHODS)
        if order["status"] != "ready":
            raise ToolError("order %s is not ready for collection (status %s)" % (order["order_id"], order["status"]))
        customer = self.db["customers"][order["customer_id"]]
        amount = _d(order["pricing"]["total"])
        if method == "account":
            cid = customer["customer_id"]
            if customer["account_type"] != "trade":
                raise ToolError("customer %s is a walk-in customer; pay by card or cash" % cid)
            if customer["status"] != "active":
                raise ToolError("account %s is on hold; pay by card or cash" % cid)
            after = _d(customer["balance_owed"]) + amount
            if after > _d(customer["credit_limit"]):
                raise ToolError(
                    "charging %.2f to account %s would take the balance to %.2f, over the %.2f limit; pay by card or cash"  # noqa: E501
                    % (float(amount), cid, float(after), customer["credit_limit"])
                )
            customer["balance_owed"] = _money(after)
        order["status"] = "collected"
        order["payment"] = {"method": method, "amount": _money(amount), "date": BUSINESS_DATE.isoformat()}
        self._log(order, "collected", "%.2f paid by %s" % (float(amount), method))
        return {
            "order_id": order["order_id"],
            "status": "collected",
            "amount_charged": _money(amount),
            "payment_method": method,
            "customer_id": customer["customer_id"],
            "balance_owed": customer["balance_owed"],
        }

    def t_cancel_order(self, args):
        _check_keys(args, ("order_id", "reason"))
        order = self._order(_req_str(args, "order_id"))
        reason = _req_str(args, "reason")
        status = order["status"]
        if status in ("ready", "collected", "cancelled"):
            why = {
                "ready": "it is already printed and waiting for collection",
                "collected": "it has been collected",
                "cancelled": "it is already cancelled",
            }[status]
            raise ToolError("order %s cannot be cancelled: %s" % (order["order_id"], why))
        total = _d(order["pricing"]["total"])
        fee = Decimal("0")
        stock_returned = False
        if status == "approved":
            fee = min(max(_q(total * APPROVED_CANCEL_RATE), APPROVED_CANCEL_MINIMUM), total)
        elif status == "printing":
            fee = _q(total * PRINTING_CANCEL_RATE)
        if order["stock_deducted"] and status == "approved":
            need = self._sheets_by_product(order["line_items"])
            for pid in sorted(need):
                self.db["products"][pid]["stock_sheets"] += need[pid]
            order["stock_deducted"] = False
            stock_returned = True
        customer = self.db["customers"][order["customer_id"]]
        if fee > 0:
            customer["balance_owed"] = _money(_d(customer["balance_owed"]) + fee)
        order["status"] = "cancelled"
        order["cancellation"] = {
            "date": BUSINESS_DATE.isoformat(),
            "reason": reason,
            "previous_status": status,
            "fee": _money(fee),
            "stock_returned": stock_returned,
        }
        self._log(
            order,
            "cancelled",
            "%s; cancelled from %s, fee %.2f%s"
            % (reason, status, float(fee), ", stock returned" if stock_returned else ""),
        )
        return order


def make():
    return Desk()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = refused = sessions = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            sessions += 1
            env = make()
            env.reset(data)
            for c in traj["calls"]:
                r = env.call(c["name"], c["arguments"])
                calls += 1
                if not r["ok"]:
                    refused += 1
    print("sessions: %d  calls: %d  refused: %d" % (sessions, calls, refused))


if __name__ == "__main__":
    sys.exit(_main())
