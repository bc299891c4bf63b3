#!/usr/bin/env python3
"""Write trajectories.jsonl: recorded desk sessions for Kilnworth Rooms.

Each session starts from data.json. Every call carries the outcome the desk
saw (accepted or refused); the script replays all sessions through adapter.py,
stops at the first call whose outcome differs, and prints the refused share.
Deterministic: the session order is shuffled with a fixed seed.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter  # noqa: E402

SEED = 20260519
OK, NO = True, False


def c(name, expect=OK, **arguments):
    return (name, arguments, expect)


SESSIONS = [
    # ---------------------------------------------------------- check-ins and settlements
    (
        "Jess Karlow from The Velvet Harrows is at the desk for today's Room 2 rehearsal. Find the booking and check the band in.",
        [
            c("search_clients", query="velvet"),
            c("list_sessions", client_id="CL-20411", date="2026-05-19"),
            c("check_in_session", session_id="SES-58101"),
        ],
    ),
    (
        "The Velvet Harrows have just arrived for SES-58101. Check them in, then add one Tillery 40W combo to the session if one is free.",
        [
            c("check_in_session", session_id="SES-58101"),
            c("get_availability", date="2026-05-19", room_type="rehearsal", start="12:00", hours=3),
            c("add_equipment", session_id="SES-58101", equipment_id="EQ-1103", quantity=1),
        ],
    ),
    (
        "Static Orchard (CL-20433) are wrapping up in Studio A. Settle today's checked-in session on their account and tell them the credit left.",
        [
            c("list_sessions", client_id="CL-20433", status="checked_in"),
            c("settle_session", session_id="SES-58103", method="account"),
            c("get_client", client_id="CL-20433"),
        ],
    ),
    (
        "Lewis from Cinderpath is leaving Room 1 and asks to put the balance of SES-58108 on the account. If the account can't cover it, he will pay cash.",
        [
            c("get_client", client_id="CL-20481"),
            c("settle_session", NO, session_id="SES-58108", method="account"),
            c("settle_session", session_id="SES-58108", method="cash"),
        ],
    ),
    (
        "Brick & Lumen are done in the Big Hall. Add the in-ear monitor pack they borrowed this afternoon to today's session, then settle it on account.",
        [
            c("list_sessions", client_id="CL-20463", date="2026-05-19"),
            c("add_equipment", session_id="SES-58107", equipment_id="EQ-1501", quantity=1),
            c("settle_session", session_id="SES-58107"),
        ],
    ),
    (
        "Caitlin Voss of Hollowmere has arrived for the 18:00 Room 1 slot. Look up the band and check them in.",
        [
            c("search_clients", query="hollowmere"),
            c("list_sessions", client_id="CL-20447", date="2026-05-19"),
            c("check_in_session", NO, session_id="SES-58105"),
        ],
    ),
    (
        "Mothwing have arrived for the Big Hall at 18:00. Check them in and add a brass snare to their session if one is free.",
        [
            c("search_clients", query="mothwing"),
            c("check_in_session", session_id="SES-58102"),
            c("get_availability", date="2026-05-19", room_type="rehearsal", start="18:00", hours=4),
            c("add_equipment", session_id="SES-58102", equipment_id="EQ-1203", quantity=1),
        ],
    ),
    (
        "Dora Finchley is here for Room 1 at 14:00. Check her in; when she leaves she will pay what's left in cash.",
        [
            c("search_clients", query="finchley"),
            c("check_in_session", session_id="SES-58104"),
            c("settle_session", session_id="SES-58104", method="cash"),
        ],
    ),
    (
        "The Quiet Engines are in Studio B for the evening. Check them in, add the valve condenser pair they asked for, then settle on their account at the end.",
        [
            c("list_sessions", client_id="CL-20470", date="2026-05-19"),
            c("check_in_session", session_id="SES-58106"),
            c("add_equipment", session_id="SES-58106", equipment_id="EQ-1401", quantity=1),
            c("settle_session", session_id="SES-58106", method="account"),
        ],
    ),
    (
        "Jess from The Velvet Harrows asks whether the band can check in now for tomorrow's Room 2 session, to drop their gear off early.",
        [
            c("list_sessions", client_id="CL-20411", date_from="2026-05-20", date_to="2026-05-20"),
            c("check_in_session", NO, session_id="SES-58110"),
        ],
    ),
    (
        "Static Orchard want the in-ear monitor pack added to today's Studio A session before they finish, then settle it by card.",
        [
            c("add_equipment", session_id="SES-58103", equipment_id="EQ-1501", quantity=1),
            c("settle_session", session_id="SES-58103", method="card"),
            c("get_client", client_id="CL-20433"),
        ],
    ),
    (
        "Tomasz Wray of Brick & Lumen walked in: the drummer wants Room 1 today from 16:00 for two hours, just him and the bass player. Book it, check them in, and settle by card when they leave.",
        [
            c("get_availability", date="2026-05-19", room_type="rehearsal", start="16:00", hours=2),
            c(
                "book_session",
                client_id="CL-20463",
                room_id="RM-101",
                date="2026-05-19",
                start="16:00",
                hours=2,
                party_size=2,
            ),
            c("check_in_session", session_id="SES-58125"),
            c("settle_session", session_id="SES-58125", method="card"),
        ],
    ),
    (
        "Priya from Static Orchard asks you to cancel today's Studio A session because the singer lost her voice. The session is already under way.",
        [
            c("get_client", client_id="CL-20433"),
            c("cancel_session", NO, session_id="SES-58103", reason="Singer lost her voice"),
        ],
    ),
    # ---------------------------------------------------------- cancellations
    (
        "Jess from The Velvet Harrows needs to cancel tomorrow's Room 2 session: the guitarist's van broke down.",
        [
            c("search_clients", query="Jess Karlow"),
            c("get_client", client_id="CL-20411"),
            c("cancel_session", session_id="SES-58110", reason="Guitarist's van broke down"),
        ],
    ),
    (
        "Ravi Duncombe (Mothwing) is cancelling Friday's Studio A day, the label pulled the budget. Find it and cancel it.",
        [
            c("search_clients", query="duncombe"),
            c("list_sessions", client_id="CL-20418", room_id="RM-201"),
            c("cancel_session", session_id="SES-58111", reason="Label pulled the recording budget"),
        ],
    ),
    (
        "Grey Lantern Records cancel the 26 May Studio A session; their artist's tour was rescheduled.",
        [
            c("search_clients", query="grey lantern"),
            c("list_sessions", client_id="CL-20440", date="2026-05-26"),
            c("cancel_session", session_id="SES-58112", reason="Artist's tour dates moved"),
        ],
    ),
    (
        "Agnieszka from The Quiet Engines cancels their block-hours overdub session on 28 May. Tell her what happens to the hours.",
        [
            c("get_client", client_id="CL-20470"),
            c("cancel_session", session_id="SES-58113", reason="Bassist unavailable"),
            c("get_client", client_id="CL-20470"),
        ],
    ),
    (
        "Harbour Lane Choir cancel Saturday morning's Big Hall rehearsal; the concert was postponed.",
        [
            c("search_clients", query="harbour lane"),
            c("list_sessions", client_id="CL-20488"),
            c("cancel_session", session_id="SES-58114", reason="Concert postponed"),
        ],
    ),
    (
        "Nell Ambrose cancels the trio's bank-holiday Studio A session.",
        [
            c("search_clients", query="ambrose"),
            c("list_sessions", client_id="CL-20476"),
            c("cancel_session", session_id="SES-58117", reason="Double bassist ill"),
        ],
    ),
    (
        "Dora Finchley cancels her 2 June Room 1 booking.",
        [
            c("get_client", client_id="CL-20425"),
            c("list_sessions", client_id="CL-20425", status="confirmed"),
            c("cancel_session", session_id="SES-58115", reason="Moving house that week"),
        ],
    ),
    (
        "Hattie Calloway (Wrenfield Sound) cancels the 12 June Big Hall evening.",
        [
            c("get_client", client_id="CL-20494"),
            c("list_sessions", client_id="CL-20494", status="confirmed"),
            c("cancel_session", session_id="SES-58124", reason="Showcase cancelled"),
        ],
    ),
    # ---------------------------------------------------------- reschedules
    (
        "Dora Finchley would like to move her 2 June Room 1 session to 3 June, same time.",
        [
            c("list_sessions", client_id="CL-20425"),
            c("get_availability", date="2026-06-03", room_type="rehearsal", start="15:00", hours=2),
            c("reschedule_session", session_id="SES-58115", date="2026-06-03"),
        ],
    ),
    (
        "Juno Parrish wants to move Thursday's Studio B overdub to Friday at the same time. If it can't be moved, cancel it instead.",
        [
            c("get_client", client_id="CL-20459"),
            c("reschedule_session", NO, session_id="SES-58116", date="2026-05-22"),
            c("cancel_session", session_id="SES-58116", reason="Could not move; client will rebook"),
        ],
    ),
    (
        "Jess (Velvet Harrows) asks to push tomorrow's Room 2 session to Saturday. If that isn't allowed, leave it as it is.",
        [
            c("list_sessions", client_id="CL-20411", date_from="2026-05-19"),
            c("reschedule_session", NO, session_id="SES-58110", date="2026-05-23"),
        ],
    ),
    (
        "Wrenfield Sound want their 27 May Room 2 block session extended from four to five hours.",
        [
            c("get_client", client_id="CL-20494"),
            c("get_availability", date="2026-05-27", room_type="rehearsal", start="10:00", hours=5),
            c("reschedule_session", session_id="SES-58118", hours=5),
        ],
    ),
    (
        "Brick & Lumen want to move Friday's Room 2 evening to Tuesday 26 May, same time.",
        [
            c("list_sessions", client_id="CL-20463", status="confirmed"),
            c("get_availability", date="2026-05-26", room_type="rehearsal", start="19:00", hours=3),
            c("reschedule_session", session_id="SES-58120", date="2026-05-26"),
        ],
    ),
    (
        "The Quiet Engines would rather have Dev Achterberg engineer their 28 May Studio B session, and they want the tonewheel organ there too.",
        [
            c("get_availability", date="2026-05-28", room_type="recording", start="11:00", hours=4),
            c("reschedule_session", session_id="SES-58113", engineer_id="ENG-05"),
            c("add_equipment", session_id="SES-58113", equipment_id="EQ-1302", quantity=1),
        ],
    ),
    (
        "Grey Lantern ask to move the 26 May Studio A session to 27 May, same time.",
        [
            c("get_availability", date="2026-05-27", room_type="recording", start="12:00", hours=8),
            c("reschedule_session", session_id="SES-58112", date="2026-05-27"),
        ],
    ),
    (
        "Mothwing ask to move their 22 May Big Hall evening into Room 2. If Room 2 is taken, keep the Big Hall but start at 14:00.",
        [
            c("reschedule_session", NO, session_id="SES-58122", room_id="RM-102"),
            c("reschedule_session", session_id="SES-58122", start="14:00"),
        ],
    ),
    (
        "Static Orchard want to move their 5 June Studio A block session to 13 June. Tamsin is off that day, so offer Marguerite if needed.",
        [
            c("get_availability", date="2026-06-13", room_type="recording", start="12:00", hours=6),
            c("reschedule_session", session_id="SES-58119", date="2026-06-13", engineer_id="ENG-08"),
            c("get_client", client_id="CL-20433"),
        ],
    ),
    (
        "Nell Ambrose wants to move the trio off the bank holiday to Tuesday 26 May at 14:00; if Studio A is busy then, Wednesday 27 May at 14:00.",
        [
            c("get_availability", date="2026-05-26", room_type="recording", start="14:00", hours=4),
            c("reschedule_session", session_id="SES-58117", date="2026-05-27"),
        ],
    ),
    (
        "Harbour Lane Choir want Saturday's Big Hall rehearsal to start at 11:00 and run four hours instead of three.",
        [
            c("get_availability", date="2026-05-23", room_type="rehearsal", start="11:00", hours=4),
            c("reschedule_session", session_id="SES-58114", start="11:00", hours=4),
        ],
    ),
    (
        "Wrenfield Sound want the 12 June Big Hall session to start an hour earlier.",
        [
            c("list_sessions", client_id="CL-20494", date="2026-06-12"),
            c("reschedule_session", session_id="SES-58124", start="17:00"),
        ],
    ),
    (
        "Grey Lantern want the 26 May Studio A day shortened to six hours.",
        [
            c("reschedule_session", session_id="SES-58112", hours=6),
            c("list_sessions", client_id="CL-20440", status="confirmed"),
        ],
    ),
    # ---------------------------------------------------------- bookings
    (
        "Dora Finchley wants Room 1 this Thursday, 21 May, at 11:00 for two hours, on her own. Quote it, then book it.",
        [
            c("quote_session", room_id="RM-101", date="2026-05-21", start="11:00", hours=2, client_id="CL-20425"),
            c(
                "book_session",
                client_id="CL-20425",
                room_id="RM-101",
                date="2026-05-21",
                start="11:00",
                hours=2,
                party_size=1,
            ),
        ],
    ),
    (
        "Cinderpath (four of them) want Room 2 on Saturday 23 May from 14:00 for three hours.",
        [
            c("search_clients", query="cinderpath"),
            c(
                "quote_session",
                room_id="RM-102",
                date="2026-05-23",
                start="14:00",
                hours=3,
                client_id="CL-20481",
                party_size=4,
            ),
            c(
                "book_session",
                client_id="CL-20481",
                room_id="RM-102",
                date="2026-05-23",
                start="14:00",
                hours=3,
                party_size=4,
            ),
        ],
    ),
    (
        "Grey Lantern want Studio B tomorrow from 11:00 for four hours with Dev Achterberg for a two-person vocal session; if Dev can't do it, use Marguerite Sallow.",
        [
            c(
                "book_session",
                NO,
                client_id="CL-20440",
                room_id="RM-202",
                date="2026-05-20",
                start="11:00",
                hours=4,
                party_size=2,
                engineer_id="ENG-05",
            ),
            c(
                "book_session",
                client_id="CL-20440",
                room_id="RM-202",
                date="2026-05-20",
                start="11:00",
                hours=4,
                party_size=2,
                engineer_id="ENG-08",
            ),
        ],
    ),
    (
        "Harbour Lane Choir (nine singers) want a rehearsal on Friday 22 May at 19:00 for three hours. Nothing big enough is free that evening, so book the Big Hall on Saturday 23 May at 14:00 instead.",
        [
            c("get_availability", date="2026-05-22", room_type="rehearsal", start="19:00", hours=3),
            c(
                "book_session",
                client_id="CL-20488",
                room_id="RM-103",
                date="2026-05-23",
                start="14:00",
                hours=3,
                party_size=9,
            ),
        ],
    ),
    (
        "The Velvet Harrows want Room 2 on 2 June from 18:00 for four hours on their block hours. If the block won't cover it, book three hours on the block instead.",
        [
            c("get_client", client_id="CL-20411"),
            c(
                "book_session",
                NO,
                client_id="CL-20411",
                room_id="RM-102",
                date="2026-06-02",
                start="18:00",
                hours=4,
                party_size=4,
                use_block=True,
            ),
            c(
                "book_session",
                client_id="CL-20411",
                room_id="RM-102",
                date="2026-06-02",
                start="18:00",
                hours=3,
                party_size=4,
                use_block=True,
            ),
        ],
    ),
    (
        "Juno Parrish wants Room 1 on Saturday 30 May at 12:00 for two hours using her rehearsal block; if the block can't be used, book it at the normal rate.",
        [
            c("get_client", client_id="CL-20459"),
            c(
                "book_session",
                NO,
                client_id="CL-20459",
                room_id="RM-101",
                date="2026-05-30",
                start="12:00",
                hours=2,
                party_size=1,
                use_block=True,
            ),
            c(
                "book_session",
                client_id="CL-20459",
                room_id="RM-101",
                date="2026-05-30",
                start="12:00",
                hours=2,
                party_size=1,
            ),
        ],
    ),
    (
        "Nell Ambrose Trio want Studio A on 3 June, 10:00 to 16:00, with Tamsin Orrell and the stage piano.",
        [
            c(
                "quote_session",
                room_id="RM-201",
                date="2026-06-03",
                start="10:00",
                hours=6,
                client_id="CL-20476",
                engineer_id="ENG-03",
                equipment=[{"equipment_id": "EQ-1301", "quantity": 1}],
            ),
            c(
                "book_session",
                client_id="CL-20476",
                room_id="RM-201",
                date="2026-06-03",
                start="10:00",
                hours=6,
                party_size=3,
                engineer_id="ENG-03",
                equipment=[{"equipment_id": "EQ-1301", "quantity": 1}],
            ),
        ],
    ),
    (
        "Gideon Pell of Saltmarsh Brass Ensemble wants the Big Hall next Saturday, 30 May, 10:00 for four hours, eight players.",
        [
            c("search_clients", query="saltmarsh"),
            c(
                "book_session",
                NO,
                client_id="CL-20452",
                room_id="RM-103",
                date="2026-05-30",
                start="10:00",
                hours=4,
                party_size=8,
            ),
        ],
    ),
    (
        "The Quiet Engines want Studio B on 4 June from 12:00 for four hours with Dev Achterberg, on their studio block.",
        [
            c(
                "quote_session",
                room_id="RM-202",
                date="2026-06-04",
                start="12:00",
                hours=4,
                client_id="CL-20470",
                engineer_id="ENG-05",
                use_block=True,
            ),
            c(
                "book_session",
                client_id="CL-20470",
                room_id="RM-202",
                date="2026-06-04",
                start="12:00",
                hours=4,
                party_size=3,
                engineer_id="ENG-05",
                use_block=True,
            ),
            c("get_client", client_id="CL-20470"),
        ],
    ),
    (
        "Wrenfield Sound want the Big Hall on Saturday 20 June from 12:00 for four hours for an eight-piece act, with two Halcyon heads and the bass rig, on their rehearsal block.",
        [
            c("get_availability", date="2026-06-20", room_type="rehearsal"),
            c(
                "book_session",
                client_id="CL-20494",
                room_id="RM-103",
                date="2026-06-20",
                start="12:00",
                hours=4,
                party_size=8,
                use_block=True,
                equipment=[{"equipment_id": "EQ-1101", "quantity": 2}, {"equipment_id": "EQ-1102", "quantity": 1}],
            ),
            c("get_client", client_id="CL-20494"),
        ],
    ),
    (
        "Mothwing want Studio A on 28 May from 10:00 for three hours with Marguerite Sallow. If three hours is too short for Studio A, book the minimum.",
        [
            c(
                "quote_session",
                NO,
                room_id="RM-201",
                date="2026-05-28",
                start="10:00",
                hours=3,
                client_id="CL-20418",
                engineer_id="ENG-08",
            ),
            c(
                "book_session",
                client_id="CL-20418",
                room_id="RM-201",
                date="2026-05-28",
                start="10:00",
                hours=4,
                party_size=5,
                engineer_id="ENG-08",
            ),
        ],
    ),
    (
        "Dora Finchley wants to try Studio B on Thursday 21 May, 16:00 for three hours with Tamsin Orrell. Quote it and book if the deposit can be taken.",
        [
            c(
                "quote_session",
                room_id="RM-202",
                date="2026-05-21",
                start="16:00",
                hours=3,
                client_id="CL-20425",
                engineer_id="ENG-03",
            ),
            c(
                "book_session",
                NO,
                client_id="CL-20425",
                room_id="RM-202",
                date="2026-05-21",
                start="16:00",
                hours=3,
                party_size=1,
                engineer_id="ENG-03",
            ),
        ],
    ),
    (
        "Static Orchard want Room 2 tonight from 19:00 for four hours for a five-piece run-through.",
        [
            c("get_availability", date="2026-05-19", room_type="rehearsal", start="19:00", hours=4),
            c(
                "quote_session",
                room_id="RM-102",
                date="2026-05-19",
                start="19:00",
                hours=4,
                client_id="CL-20433",
                party_size=5,
            ),
            c(
                "book_session",
                client_id="CL-20433",
                room_id="RM-102",
                date="2026-05-19",
                start="19:00",
                hours=4,
                party_size=5,
            ),
        ],
    ),
    (
        "Harbour Lane Choir want the Big Hall on Monday 24 August for their autumn term. If that's too far ahead, book Monday 17 August at 18:00 for three hours.",
        [
            c(
                "book_session",
                NO,
                client_id="CL-20488",
                room_id="RM-103",
                date="2026-08-24",
                start="18:00",
                hours=3,
                party_size=9,
            ),
            c(
                "book_session",
                client_id="CL-20488",
                room_id="RM-103",
                date="2026-08-17",
                start="18:00",
                hours=3,
                party_size=9,
            ),
        ],
    ),
    (
        "Brick & Lumen want Room 2 on Thursday 21 May from 22:00 for three hours; if that runs too late, start at 21:00.",
        [
            c(
                "book_session",
                NO,
                client_id="CL-20463",
                room_id="RM-102",
                date="2026-05-21",
                start="22:00",
                hours=3,
                party_size=5,
            ),
            c(
                "book_session",
                client_id="CL-20463",
                room_id="RM-102",
                date="2026-05-21",
                start="21:00",
                hours=3,
                party_size=5,
            ),
        ],
    ),
    (
        "Grey Lantern want Studio A on Monday 8 June from 10:00 for eight hours, six people, with the valve condenser pair. Ilse Varnam will engineer.",
        [
            c("get_availability", date="2026-06-08", room_type="recording"),
            c(
                "book_session",
                NO,
                client_id="CL-20440",
                room_id="RM-201",
                date="2026-06-08",
                start="10:00",
                hours=8,
                party_size=6,
                equipment=[{"equipment_id": "EQ-1401", "quantity": 1}],
            ),
            c(
                "book_session",
                client_id="CL-20440",
                room_id="RM-201",
                date="2026-06-08",
                start="10:00",
                hours=8,
                party_size=6,
                engineer_id="ENG-14",
                equipment=[{"equipment_id": "EQ-1401", "quantity": 1}],
            ),
        ],
    ),
    (
        "Mothwing want the Big Hall on Sunday 31 May from 13:00 for four hours with both drum kits and the cymbal pack.",
        [
            c(
                "quote_session",
                room_id="RM-103",
                date="2026-05-31",
                start="13:00",
                hours=4,
                client_id="CL-20418",
                equipment=[{"equipment_id": "EQ-1201", "quantity": 2}, {"equipment_id": "EQ-1202", "quantity": 1}],
            ),
            c(
                "book_session",
                client_id="CL-20418",
                room_id="RM-103",
                date="2026-05-31",
                start="13:00",
                hours=4,
                party_size=5,
                equipment=[{"equipment_id": "EQ-1201", "quantity": 2}, {"equipment_id": "EQ-1202", "quantity": 1}],
            ),
        ],
    ),
    # ---------------------------------------------------------- equipment on future sessions
    (
        "Brick & Lumen want two more vocal mics on Friday's Room 2 session (SES-58120).",
        [
            c("get_availability", date="2026-05-22", room_type="rehearsal", start="19:00", hours=3),
            c("add_equipment", session_id="SES-58120", equipment_id="EQ-1402", quantity=2),
        ],
    ),
    (
        "Mothwing want a second drum kit on their 22 May Big Hall evening. If none is free, add a brass snare instead.",
        [
            c("add_equipment", NO, session_id="SES-58122", equipment_id="EQ-1201", quantity=1),
            c("add_equipment", session_id="SES-58122", equipment_id="EQ-1203", quantity=1),
        ],
    ),
    (
        "Grey Lantern want the tonewheel organ added to the 26 May Studio A session.",
        [
            c("get_availability", date="2026-05-26", room_type="recording", start="12:00", hours=8),
            c("add_equipment", session_id="SES-58112", equipment_id="EQ-1302", quantity=1),
        ],
    ),
    (
        "Nell Ambrose wants three dynamic vocal mics added to the bank-holiday Studio A session.",
        [
            c("list_sessions", client_id="CL-20476"),
            c("add_equipment", session_id="SES-58117", equipment_id="EQ-1402", quantity=3),
        ],
    ),
    (
        "Harbour Lane Choir want four dynamic vocal mics on Saturday's Big Hall rehearsal.",
        [
            c("add_equipment", session_id="SES-58114", equipment_id="EQ-1402", quantity=4),
            c("get_client", client_id="CL-20488"),
        ],
    ),
    (
        "Wrenfield Sound want two more Halcyon heads on the 12 June Big Hall session; if only one is left, add one.",
        [
            c("add_equipment", NO, session_id="SES-58124", equipment_id="EQ-1101", quantity=2),
            c("add_equipment", session_id="SES-58124", equipment_id="EQ-1101", quantity=1),
        ],
    ),
    (
        "Grey Lantern ask to add a stage piano to yesterday's Studio B session, which they forgot to mention.",
        [
            c("list_sessions", client_id="CL-20440", date="2026-05-18"),
            c("add_equipment", NO, session_id="SES-58089", equipment_id="EQ-1301", quantity=1),
        ],
    ),
    # ---------------------------------------------------------- packages
    (
        "Tomasz from Brick & Lumen wants to buy another Rehearsal Ten block on the account.",
        [
            c("get_client", client_id="CL-20463"),
            c("buy_package", client_id="CL-20463", package_id="PKG-R10", method="account"),
        ],
    ),
    (
        "Jess from The Velvet Harrows wants to top up with a Rehearsal Ten block now rather than wait.",
        [c("get_client", client_id="CL-20411"), c("buy_package", NO, client_id="CL-20411", package_id="PKG-R10")],
    ),
    (
        "Juno Parrish wants a Rehearsal Twenty-Five block; her old block has lapsed.",
        [c("get_client", client_id="CL-20459"), c("buy_package", client_id="CL-20459", package_id="PKG-R25")],
    ),
    (
        "The Quiet Engines ask about Studio Thirty; if they can't have it, sell them a Rehearsal Ten block on the account.",
        [
            c("get_client", client_id="CL-20470"),
            c("buy_package", NO, client_id="CL-20470", package_id="PKG-S30"),
            c("buy_package", client_id="CL-20470", package_id="PKG-R10"),
        ],
    ),
    (
        "Cinderpath want a Rehearsal Ten block and ask to put it on a card; if there's no card on the account, take cash.",
        [
            c("get_client", client_id="CL-20481"),
            c("buy_package", NO, client_id="CL-20481", package_id="PKG-R10", method="card"),
            c("buy_package", client_id="CL-20481", package_id="PKG-R10", method="cash"),
        ],
    ),
    (
        "Grey Lantern Records want a Studio Thirty block for their new signing.",
        [
            c("search_clients", query="grey lantern", tier="pro"),
            c("buy_package", client_id="CL-20440", package_id="PKG-S30"),
        ],
    ),
    (
        "Harbour Lane Choir buy a Rehearsal Twenty-Five block and use it straight away for the Big Hall on Saturday 30 May, 14:00 for three hours.",
        [
            c("get_client", client_id="CL-20488"),
            c("buy_package", client_id="CL-20488", package_id="PKG-R25"),
            c(
                "book_session",
                client_id="CL-20488",
                room_id="RM-103",
                date="2026-05-30",
                start="14:00",
                hours=3,
                party_size=9,
                use_block=True,
            ),
        ],
    ),
    (
        "Nell Ambrose buys a Studio Twelve block by card and books Studio A on 10 June, 10:00 for six hours with Marguerite Sallow on it.",
        [
            c("buy_package", client_id="CL-20476", package_id="PKG-S12", method="card"),
            c(
                "book_session",
                client_id="CL-20476",
                room_id="RM-201",
                date="2026-06-10",
                start="10:00",
                hours=6,
                party_size=3,
                engineer_id="ENG-08",
                use_block=True,
            ),
        ],
    ),
    (
        "Ravi from Mothwing wants the Rehearsal Twenty-Five block; if the account can't have it, the Rehearsal Ten.",
        [
            c("search_clients", query="mothwing"),
            c("buy_package", NO, client_id="CL-20418", package_id="PKG-R25"),
            c("buy_package", client_id="CL-20418", package_id="PKG-R10"),
        ],
    ),
    # ---------------------------------------------------------- reads
    (
        "A caller asks what Room 3 would cost a Harbour Lane Choir booking on Saturday 23 May from 14:00 for four hours.",
        [
            c("search_clients", query="treadwell"),
            c(
                "quote_session",
                room_id="RM-103",
                date="2026-05-23",
                start="14:00",
                hours=4,
                client_id="CL-20488",
                party_size=9,
            ),
        ],
    ),
    (
        "What's on in the recording rooms on bank-holiday Monday 25 May, and which engineers are around?",
        [c("get_availability", date="2026-05-25", room_type="recording")],
    ),
    (
        "Morning briefing: list every session in the diary for today, then the sessions Marguerite Sallow is engineering over the next week.",
        [
            c("list_sessions", date="2026-05-19"),
            c("list_sessions", engineer_id="ENG-08", date_from="2026-05-19", date_to="2026-05-26"),
        ],
    ),
    (
        "Hattie Calloway asks how many block hours Wrenfield Sound have left and what's booked.",
        [c("search_clients", query="wrenfield"), c("get_client", client_id="CL-20494")],
    ),
    (
        "A new band asks for a quote for the Loft on Friday 29 May from 18:00 for three hours; if the Loft is closed, quote Room 2 at standard rates.",
        [
            c("quote_session", NO, room_id="RM-104", date="2026-05-29", start="18:00", hours=3),
            c("quote_session", room_id="RM-102", date="2026-05-29", start="18:00", hours=3),
        ],
    ),
    (
        "Priya from Static Orchard asks for a price for Studio A on 10 June, 10:00 for eight hours with Tamsin Orrell, on their block.",
        [
            c(
                "quote_session",
                room_id="RM-201",
                date="2026-06-10",
                start="10:00",
                hours=8,
                client_id="CL-20433",
                engineer_id="ENG-03",
                use_block=True,
            )
        ],
    ),
    (
        "The duty manager wants a list of every confirmed session from today to the end of May.",
        [
            c("list_sessions", NO, status="booked", date_from="2026-05-19", date_to="2026-05-31"),
            c("list_sessions", status="confirmed", date_from="2026-05-19", date_to="2026-05-31"),
        ],
    ),
    (
        "Someone asks whether any drum kits are free on Friday 22 May evening, 19:00 to 22:00.",
        [c("get_availability", date="2026-05-22", start="19:00", hours=3)],
    ),
]


def build():
    rng = random.Random(SEED)
    order = list(range(len(SESSIONS)))
    rng.shuffle(order)
    out = []
    for n, idx in enumerate(order):
        instruction, calls = SESSIONS[idx]
        out.append(
            {
                "id": "studios-%03d" % n,
                "instruction": instruction,
                "calls": [{"name": name, "arguments": args} for name, args, _ in calls],
                "_expect": [exp for _, _, exp in calls],
            }
        )
    return out


def verify(trajs, data):
    desk = adapter.make()
    total = refused = 0
    per_tool = {}
    for t in trajs:
        desk.reset(data)
        for i, (call, exp) in enumerate(zip(t["calls"], t["_expect"])):
            res = desk.call(call["name"], call["arguments"])
            total += 1
            per_tool.setdefault(call["name"], [0, 0])
            per_tool[call["name"]][0] += 1
            if not res["ok"]:
                refused += 1
                per_tool[call["name"]][1] += 1
            if res["ok"] != exp:
                print(
                    "MISMATCH in %s call %d (%s): expected %s, got %s"
                    % (t["id"], i, call["name"], "ok" if exp else "refused", json.dumps(res)[:400])
                )
                sys.exit(1)
    return total, refused, per_tool


def main():
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    trajs = build()
    total, refused, per_tool = verify(trajs, data)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w", encoding="utf-8") as fh:
        for t in trajs:
            rec = {"id": t["id"], "instruction": t["instruction"], "calls": t["calls"]}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print("trajectories: %d  calls: %d  refused: %d (%.1f%%)" % (len(trajs), total, refused, 100.0 * refused / total))
    for name in sorted(per_tool):
        print("  %-20s %3d calls, %2d refused" % (name, per_tool[name][0], per_tool[name][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
