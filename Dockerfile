# The one image of web, worker and beat (compose.yaml); each runs a part of config/scripts/serve.sh.
# Not built here: Docker cannot run where Topos is developed.  What it runs, serve.sh, is tested
# (tests/deploy/test_serve.py).
FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 TOPOS_SKIP_INSTALL=1 STATIC_ROOT=/app/staticfiles \
    DJANGO_SETTINGS_MODULE=config.production
WORKDIR /app
COPY requirements.txt .
RUN python -m venv .venv && .venv/bin/pip install --no-cache-dir -r requirements.txt
COPY . .
# The static files belong to the release: collected once into the image, hashed and compressed.  Collecting reads
# the settings, which refuse to load without these; the values are placeholders that no running container uses.
RUN SECRET_KEY=build-time-placeholder-0123456789-abcdefghijklmnopqrstuvwxyz SITE_URL=https://build.invalid \
    REDIS_URL=redis://build.invalid:6379/0 .venv/bin/python manage.py collectstatic --noinput -v 0
RUN useradd --system --uid 10001 topos && mkdir -p /app/.beat && chown -R topos /app/.beat /app/staticfiles
USER topos
EXPOSE 8000
ENTRYPOINT ["bash", "config/scripts/serve.sh"]
CMD ["web"]
