"""Push and webhooks through the API and the pages (decision 29): every page action has its operation, in the schema;
bad input is 400/404/409 with a message and changes nothing; someone else's device or webhook is 404."""

from __future__ import annotations

import pytest
from django.test import Client

from outbound.models import PushChoice, PushSubscription, WebhookDelivery, WebhookEndpoint
from tests.conftest import api_client_for
from tests.outbound.test_push import Browser

pytestmark = pytest.mark.django_db(transaction=True)


def page_client(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    user.language = language
    user.save(update_fields=["language"])
    return client


def test_push_settings_and_devices_through_the_api(member, outsider, receiver, local_allowed):
    api = api_client_for(member)
    start = api.get("/api/me/push/").json()
    assert start["public_key"] and start["subscriptions"] == [] and "chat" not in start["events"]
    assert api.patch("/api/me/push/", {"events": ["your_turn", "chat"]}, format="json").json()["events"] == [
        "your_turn",
        "chat",
    ]
    refused = api.patch("/api/me/push/", {"events": ["your_turn", "nonsense"]}, format="json")
    assert refused.status_code == 400
    assert PushChoice.objects.get(user=member).events == ["your_turn", "chat"]
    browser = Browser()
    body = {"endpoint": receiver.url + "/p", "keys": browser.keys, "expirationTime": None}
    made = api.post("/api/me/push/subscriptions/", body, format="json")
    assert made.status_code == 201
    assert api.post("/api/me/push/subscriptions/", body, format="json").status_code == 200  # the same browser again
    (listed,) = api.get("/api/me/push/subscriptions/").json()
    assert listed["id"] == made.json()["id"] and listed["endpoint"] == receiver.url + "/p"
    assert api_client_for(outsider).delete(f"/api/me/push/subscriptions/{listed['id']}/").status_code == 404
    assert api.delete(f"/api/me/push/subscriptions/{listed['id']}/").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "change,field",
    [
        ({"keys": {"p256dh": "not-a-key", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "p256dh"),
        ({"keys": {"p256dh": Browser().keys["p256dh"], "auth": "c2hvcnQ"}}, "auth"),
        ({"endpoint": "http://10.0.0.7/push"}, "endpoint"),
        ({"endpoint": "http://169.254.169.254/"}, "endpoint"),
    ],
)
def test_a_subscription_with_bad_keys_or_a_private_endpoint_is_refused(member, change, field):
    body = {"endpoint": "https://push.example/x", "keys": Browser().keys, **change}
    answer = api_client_for(member).post("/api/me/push/subscriptions/", body, format="json")
    assert answer.status_code == 400 and answer.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_webhooks_through_the_api(member, outsider, receiver, local_allowed):
    api = api_client_for(member)
    made = api.post("/api/me/webhooks/", {"url": receiver.url + "/h", "format": "discord"}, format="json")
    assert made.status_code == 201, made.content
    hook = made.json()
    assert hook["format"] == "discord" and len(hook["secret"]) > 30 and "chat" not in hook["events"]
    assert [h["id"] for h in api.get("/api/me/webhooks/").json()] == [hook["id"]]
    assert api.get(f"/api/me/webhooks/{hook['id']}/").json() == hook
    changed = api.patch(f"/api/me/webhooks/{hook['id']}/", {"events": ["finished"], "new_secret": True}, format="json")
    assert changed.json()["events"] == ["finished"] and changed.json()["secret"] != hook["secret"]
    sent = api.post(f"/api/me/webhooks/{hook['id']}/test/")
    assert sent.status_code == 202 and sent.json()["event"] == "test"
    (log,) = api.get(f"/api/me/webhooks/{hook['id']}/deliveries/").json()
    assert (log["status"], log["attempts"], log["last_status"], log["last_error"]) == ("delivered", 1, 201, "")
    assert len(receiver.received) == 1
    other = api_client_for(outsider)
    for answer in (
        other.get(f"/api/me/webhooks/{hook['id']}/"),
        other.get(f"/api/me/webhooks/{hook['id']}/deliveries/"),
        other.post(f"/api/me/webhooks/{hook['id']}/test/"),
        other.patch(f"/api/me/webhooks/{hook['id']}/", {"active": False}, format="json"),
        other.delete(f"/api/me/webhooks/{hook['id']}/"),
    ):
        assert answer.status_code == 404
    assert api.delete(f"/api/me/webhooks/{hook['id']}/").status_code == 204
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1/h", "http://10.0.0.1/h", "http://10.200.3.4:8080/", "http://[::1]/h", "http://169.254.169.254/"],
)
def test_a_webhook_to_a_private_address_is_400_in_the_api(member, url):
    answer = api_client_for(member).post("/api/me/webhooks/", {"url": url}, format="json")
    assert answer.status_code == 400 and "private network" in answer.json()["detail"]
    assert not WebhookEndpoint.objects.exists()


def test_one_person_has_a_bounded_number_of_webhooks(member, receiver, local_allowed, settings):
    settings.TOPOS_WEBHOOKS_PER_PERSON = 2
    api = api_client_for(member)
    for _ in range(2):
        assert api.post("/api/me/webhooks/", {"url": receiver.url}, format="json").status_code == 201
    assert api.post("/api/me/webhooks/", {"url": receiver.url}, format="json").status_code == 409
    assert WebhookEndpoint.objects.count() == 2


def test_the_operations_are_in_the_schema(member):
    paths = api_client_for(member).get("/api/schema/?format=json").json()["paths"]
    for path, verbs in {
        "/api/me/push/": {"get", "patch"},
        "/api/me/push/subscriptions/": {"get", "post"},
        "/api/me/push/subscriptions/{id}/": {"delete"},
        "/api/me/webhooks/": {"get", "post"},
        "/api/me/webhooks/{id}/": {"get", "patch", "delete"},
        "/api/me/webhooks/{id}/test/": {"post"},
        "/api/me/webhooks/{id}/deliveries/": {"get"},
    }.items():
        assert verbs <= set(paths[path]), path


def test_signed_out_is_refused(client):
    assert client.get("/api/me/webhooks/").status_code in (401, 403)
    assert client.get("/api/me/push/").status_code in (401, 403)


def test_the_service_worker_is_served_from_the_root_scope(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in answer.content


@pytest.mark.parametrize(
    "language,words",
    [("en", "Push notifications"), ("es", "Notificaciones push"), ("zh-hant", "推播通知")],
)
def test_the_settings_page_has_the_push_button_in_her_language(member, language, words):
    page = page_client(member, language).get("/accounts/notifications/").content.decode()
    assert words in page and "data-push-toggle" in page and 'src="/static/outbound/push.js"' in page


@pytest.mark.parametrize(
    "language,words", [("en", "Send a test event"), ("es", "Enviar un evento de prueba"), ("zh-hant", "傳送測試事件")]
)
def test_the_webhooks_page_adds_tests_shows_the_log_and_deletes(member, receiver, local_allowed, language, words):
    client = page_client(member, language)
    added = client.post(
        "/accounts/notifications/webhooks/", {"url": receiver.url, "format": "slack", "events": ["your_turn"]}
    )
    assert added.status_code == 302
    hook = WebhookEndpoint.objects.get(user=member)
    assert (hook.format, hook.events) == ("slack", ["your_turn"])
    assert client.post(f"/accounts/notifications/webhooks/{hook.pk}/test/").status_code == 302
    page = client.get("/accounts/notifications/webhooks/").content.decode()
    assert words in page and hook.secret in page and "delivery-delivered" in page
    refused = client.post("/accounts/notifications/webhooks/", {"url": "http://10.0.0.1/"}, follow=True)
    assert WebhookEndpoint.objects.count() == 1 and refused.status_code == 200
    assert client.post(f"/accounts/notifications/webhooks/{hook.pk}/delete/").status_code == 302
    assert not WebhookEndpoint.objects.exists()


def test_the_push_events_form_and_removing_a_device(member, receiver, local_allowed):
    client = page_client(member)
    client.post("/accounts/notifications/push/", {"events": ["finished", "invited"]})
    assert PushChoice.objects.get(user=member).events == ["invited", "finished"]
    api_client_for(member).post(
        "/api/me/push/subscriptions/", {"endpoint": receiver.url + "/p", "keys": Browser().keys}, format="json"
    )
    device = PushSubscription.objects.get(user=member)
    assert client.post(f"/accounts/notifications/push/{device.pk}/delete/").status_code == 302
    assert not PushSubscription.objects.exists()


def test_the_request_only_queues_the_sending_for_a_worker(member, receiver, local_allowed, sent_tasks):
    """Nothing is posted inside a web request: the test event is a task for the worker (a broker, no worker here)."""
    from config.celery import app

    hook = api_client_for(member).post("/api/me/webhooks/", {"url": receiver.url}, format="json").json()
    app.conf.task_always_eager = False  # the celery_eager fixture puts it back
    sent = api_client_for(member).post(f"/api/me/webhooks/{hook['id']}/test/")
    assert sent.status_code == 202 and sent.json()["status"] == "pending" and sent.json()["attempts"] == 0
    assert receiver.received == []
    assert [(name, args) for name, args, _eta in sent_tasks()] == [
        ("outbound.tasks.webhook_deliver", (sent.json()["id"],))
    ]
