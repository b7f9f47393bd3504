"""URLs split by audience (as Tabbycat does): public pages need no account and only read; organiser
pages live under /jarjestaja/ and need a login and a permission for the event."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournaments.web.views.scoresheet import service_worker
from tuppiliitto.forms import LoginForm
from tuppiliitto.health import health, ready

admin.site.site_header = "Suomen Tuppiliitto"
admin.site.site_title = "Tuppiliitto"

urlpatterns = [
    path("terveys/", health, name="health"),
    path("terveys/valmis/", ready, name="ready"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path(
        "kirjaudu/",
        auth_views.LoginView.as_view(authentication_form=LoginForm, redirect_authenticated_user=True),
        name="login",
    ),
    path("kirjaudu-ulos/", auth_views.LogoutView.as_view(), name="logout"),
    path("jarjestaja/joukkuekisa/", include("teams.urls_organiser")),
    path("jarjestaja/", include("federation.web.urls_organiser")),
    path("jarjestaja/", include("tournaments.web.urls_organiser")),
    path("tulos/sw.js", service_worker, name="referee_sw"),  # its scope: one match's link, /tulos/<token>/
    path("tulos/<str:token>/", include("tournaments.web.urls_link")),
    path("api/", include("federation.web.urls_api")),
    path("api/", include("cup.urls_api")),
    path("api/", include("tournaments.web.urls_api")),
    path("", include("archive.web.urls")),
    path("", include("cup.urls")),
    path("", include("teams.urls")),
    path("", include("tournaments.web.urls_public")),
]

