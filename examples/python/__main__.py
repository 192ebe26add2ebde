"""A docs platform declared in Python through the `docs` provider plugin and its generated SDK (sdk/python)."""

import pulumi
import pulumi_docs as docs

config = pulumi.Config()

# Where the docs' spaces live.
handbook = docs.Collection("handbook", title="Handbook")
guides = docs.Space("guides-space", title="Guides", parent_id=handbook.id)
how_to = docs.Space("how-to-space", title="How-to", parent_id=handbook.id)

# An existing space, found by its title (docs:index:getSpace, at preview too).
reference = docs.get_space_output(title=config.require("referenceTitle"))

# The site, open only to readers with a share link until its launch.
site = docs.Site("site", title="Acme Docs", visibility="share-link", published=True)
for index, (name, title, space_id) in enumerate(
    [("guides", "Guides", guides.id), ("how-to", "How-to", how_to.id), ("reference", "Reference", reference.id)]
):
    docs.SiteSection(name, site_id=site.id, space_id=space_id, title=title, default=index == 0)
reviewers = docs.SiteShareLink("reviewers-link", site_id=site.id, name="Reviewers")

# The writers' team, led by the member found by their email (docs:index:getOrganizationMember).
lead = docs.get_organization_member_output(email=config.require("leadEmail"))
writers = docs.Team(
    "writers",
    title="Technical writers",
    members=[docs.TeamMembersItemArgs(user=lead.id, role="owner")],
)

pulumi.export("siteId", site.id)
pulumi.export("collectionId", handbook.id)
pulumi.export("teamId", writers.id)
pulumi.export("leadId", lead.id)
pulumi.export("referenceSpaceId", reference.id)
# The share link's URL carries a token: a secret output (the schema marks it so).
pulumi.export("reviewUrl", reviewers.url)
