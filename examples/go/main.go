// A docs platform declared in Go through the `docs` provider plugin and its generated SDK (sdk/go).
package main

import (
	"github.com/pulumi-docs-platform/pulumi-docs-platform/sdk/go/docs"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// Where the docs' spaces live.
		handbook, err := docs.NewCollection(ctx, "handbook", &docs.CollectionArgs{Title: pulumi.String("Handbook")})
		if err != nil {
			return err
		}
		guides, err := docs.NewSpace(ctx, "guides-space", &docs.SpaceArgs{
			Title: pulumi.String("Guides"), ParentId: handbook.ID(),
		})
		if err != nil {
			return err
		}
		howTo, err := docs.NewSpace(ctx, "how-to-space", &docs.SpaceArgs{
			Title: pulumi.String("How-to"), ParentId: handbook.ID(),
		})
		if err != nil {
			return err
		}

		// An existing space, found by its title (docs:index:getSpace, at preview too).
		reference := docs.LookupSpaceOutput(ctx, docs.LookupSpaceOutputArgs{Title: pulumi.String(cfg.Require("referenceTitle"))})

		// The site, open only to readers with a share link until its launch.
		site, err := docs.NewSite(ctx, "site", &docs.SiteArgs{
			Title: pulumi.String("Acme Docs"), Visibility: docs.SiteVisibility_Share_Link, Published: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		sections := []struct {
			name, title string
			spaceID     pulumi.StringInput
		}{
			{"guides", "Guides", guides.ID()},
			{"how-to", "How-to", howTo.ID()},
			{"reference", "Reference", reference.Id()},
		}
		for i, section := range sections {
			if _, err := docs.NewSiteSection(ctx, section.name, &docs.SiteSectionArgs{
				SiteId: site.ID(), SpaceId: section.spaceID, Title: pulumi.String(section.title), Default: pulumi.Bool(i == 0),
			}); err != nil {
				return err
			}
		}
		reviewers, err := docs.NewSiteShareLink(ctx, "reviewers-link", &docs.SiteShareLinkArgs{
			SiteId: site.ID(), Name: pulumi.String("Reviewers"),
		})
		if err != nil {
			return err
		}

		// The writers' team, led by the member found by their email (docs:index:getOrganizationMember).
		lead := docs.LookupOrganizationMemberOutput(ctx, docs.LookupOrganizationMemberOutputArgs{
			Email: pulumi.String(cfg.Require("leadEmail")),
		})
		writers, err := docs.NewTeam(ctx, "writers", &docs.TeamArgs{
			Title:   pulumi.String("Technical writers"),
			Members: docs.TeamMembersItemArray{docs.TeamMembersItemArgs{User: lead.Id(), Role: docs.TeamRoleOwner}},
		})
		if err != nil {
			return err
		}

		ctx.Export("siteId", site.ID())
		ctx.Export("collectionId", handbook.ID())
		ctx.Export("teamId", writers.ID())
		ctx.Export("leadId", lead.Id())
		ctx.Export("referenceSpaceId", reference.Id())
		// The share link's URL carries a token: a secret output (the schema marks it so).
		ctx.Export("reviewUrl", reviewers.Url)
		return nil
	})
}
